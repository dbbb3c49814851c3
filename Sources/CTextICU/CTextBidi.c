// The Unicode Bidirectional Algorithm through ICU's ubidi (see CTextICU.h).
#include "CTextICU.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/utf16.h>

_Static_assert(CTX_BIDI_L == U_LEFT_TO_RIGHT && CTX_BIDI_R == U_RIGHT_TO_LEFT && CTX_BIDI_EN == U_EUROPEAN_NUMBER
               && CTX_BIDI_ES == U_EUROPEAN_NUMBER_SEPARATOR && CTX_BIDI_ET == U_EUROPEAN_NUMBER_TERMINATOR
               && CTX_BIDI_AN == U_ARABIC_NUMBER && CTX_BIDI_CS == U_COMMON_NUMBER_SEPARATOR
               && CTX_BIDI_B == U_BLOCK_SEPARATOR && CTX_BIDI_S == U_SEGMENT_SEPARATOR
               && CTX_BIDI_WS == U_WHITE_SPACE_NEUTRAL && CTX_BIDI_ON == U_OTHER_NEUTRAL
               && CTX_BIDI_LRE == U_LEFT_TO_RIGHT_EMBEDDING && CTX_BIDI_LRO == U_LEFT_TO_RIGHT_OVERRIDE
               && CTX_BIDI_AL == U_RIGHT_TO_LEFT_ARABIC && CTX_BIDI_RLE == U_RIGHT_TO_LEFT_EMBEDDING
               && CTX_BIDI_RLO == U_RIGHT_TO_LEFT_OVERRIDE && CTX_BIDI_PDF == U_POP_DIRECTIONAL_FORMAT
               && CTX_BIDI_NSM == U_DIR_NON_SPACING_MARK && CTX_BIDI_BN == U_BOUNDARY_NEUTRAL
               && CTX_BIDI_FSI == U_FIRST_STRONG_ISOLATE && CTX_BIDI_LRI == U_LEFT_TO_RIGHT_ISOLATE
               && CTX_BIDI_RLI == U_RIGHT_TO_LEFT_ISOLATE && CTX_BIDI_PDI == U_POP_DIRECTIONAL_ISOLATE,
               "UCharDirection");

// Whether a code point can raise a level above 0 in a left-to-right paragraph.
static unsigned raises_level(UChar32 c) {
    switch (u_charDirection(c)) {
    case U_RIGHT_TO_LEFT: case U_RIGHT_TO_LEFT_ARABIC: case U_ARABIC_NUMBER:
    case U_LEFT_TO_RIGHT_EMBEDDING: case U_LEFT_TO_RIGHT_OVERRIDE: case U_RIGHT_TO_LEFT_EMBEDDING:
    case U_RIGHT_TO_LEFT_OVERRIDE: case U_POP_DIRECTIONAL_FORMAT: case U_FIRST_STRONG_ISOLATE:
    case U_LEFT_TO_RIGHT_ISOLATE: case U_RIGHT_TO_LEFT_ISOLATE: case U_POP_DIRECTIONAL_ISOLATE:
        return 1;
    default:
        return 0;
    }
}

// A property of every BMP code point in `bits` bits (1 or 2), `classify`'s answer,
// computed a 256-code-point page at a time on first use (the answers are the linked
// ICU's). Racing threads compute the same bits.
typedef struct {
    _Atomic uint64_t words[0x10000 * 2 / 64];
    _Atomic uint8_t ready[0x10000 / 256];
} BMPTable;

static inline unsigned bmp_lookup(BMPTable *table, unsigned bits, unsigned (*classify)(UChar32), uint16_t unit) {
    unsigned page = unit >> 8, per_word = 64 / bits;
    if (!atomic_load_explicit(&table->ready[page], memory_order_acquire)) {
        for (unsigned first = page * 256; first < page * 256 + 256; first += per_word) {
            uint64_t word = 0;
            for (unsigned k = 0; k < per_word; k++) word |= (uint64_t)classify((UChar32)(first + k)) << (bits * k);
            atomic_store_explicit(&table->words[first / per_word], word, memory_order_relaxed);
        }
        atomic_store_explicit(&table->ready[page], 1, memory_order_release);
    }
    uint64_t word = atomic_load_explicit(&table->words[unit / per_word], memory_order_relaxed);
    return (unsigned)(word >> (bits * (unit % per_word))) & ((1u << bits) - 1);
}

static BMPTable raising;

static unsigned bmp_raises_level(uint16_t unit) { return bmp_lookup(&raising, 1, raises_level, unit); }

int32_t ctx_bidi_needed(const uint16_t *text, int32_t len) {
    for (int32_t i = 0; i < len; i++) {
        uint16_t unit = text[i];
        // Most text passes by range, with no table lookup and no ICU call.
        if (ctx_bidi_passes(unit)) continue;
        if (U16_IS_LEAD(unit) && i + 1 < len && U16_IS_TRAIL(text[i + 1])) {
            UChar32 c = U16_GET_SUPPLEMENTARY(unit, text[i + 1]);
            if (!ctx_bidi_passes((uint32_t)c) && raises_level(c)) return 1;
            i++;
        } else if (bmp_raises_level(unit)) {
            return 1;
        }
    }
    return 0;
}

// A code point's part in a right-to-left paragraph of the simplest kind: 1 when it is
// strong right to left (R, AL), 0 when it is neutral there (WS, ON, S, NSM, and ES, ET
// and CS, which without numbers are neutral too), else 2 (for which ICU decides).
static unsigned right_to_left_part(UChar32 c) {
    switch (u_charDirection(c)) {
    case U_RIGHT_TO_LEFT: case U_RIGHT_TO_LEFT_ARABIC:
        return 1;
    case U_WHITE_SPACE_NEUTRAL: case U_OTHER_NEUTRAL: case U_SEGMENT_SEPARATOR: case U_DIR_NON_SPACING_MARK:
    case U_EUROPEAN_NUMBER_SEPARATOR: case U_EUROPEAN_NUMBER_TERMINATOR: case U_COMMON_NUMBER_SEPARATOR:
        return 0;
    default:
        return 2;
    }
}

static BMPTable right_to_left_parts;

static unsigned rtl_part(uint16_t unit) { return bmp_lookup(&right_to_left_parts, 2, right_to_left_part, unit); }

// Whether `text` is one paragraph that resolves to level 1 throughout: BMP code points
// that are R, AL or neutral (rtl_part), with an R or AL among them when the direction is
// auto. By UAX #9 every neutral then lies between right-to-left strong types or the
// paragraph's ends, which are right to left (W1-W7 leave nothing else, N0-N2 make all
// of it R), and rule L1 resets whitespace and segment separators to the paragraph's
// level, 1 as well: what ICU answers, without its setup, for most Arabic and Hebrew.
static int is_plain_right_to_left(const uint16_t *text, int32_t len, int direction) {
    int strong = direction == CTX_BIDI_RTL;
    for (int32_t i = 0; i < len; i++) {
        unsigned part = rtl_part(text[i]);   // surrogates are L: 2
        if (part == 2) return 0;
        strong |= (int)part;
    }
    return strong;
}

static UBiDiLevel icu_level(int direction) {
    return direction == CTX_BIDI_LTR ? 0 : direction == CTX_BIDI_RTL ? 1 : UBIDI_DEFAULT_LTR;
}

// One UBiDi per thread, reused: it keeps its working memory between calls.
static pthread_key_t bidi_key;
static pthread_once_t bidi_once = PTHREAD_ONCE_INIT;
static void close_bidi(void *p) { ubidi_close(p); }
static void make_bidi_key(void) { pthread_key_create(&bidi_key, close_bidi); }

static UBiDi *thread_bidi(UErrorCode *status) {
    pthread_once(&bidi_once, make_bidi_key);
    UBiDi *bidi = pthread_getspecific(bidi_key);
    if (!bidi) {
        bidi = ubidi_open();
        if (!bidi) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
        pthread_setspecific(bidi_key, bidi);
    }
    return bidi;
}

static const UChar no_text[1] = { 0 };

int32_t ctx_bidi_resolve(const uint16_t *text, int32_t len, int direction, uint8_t *levels,
                         int32_t *paragraph_ends, uint8_t *paragraph_levels, int32_t capacity, int32_t *error) {
    *error = 0;
    ctx_note_measuring_call();
    if (len <= 0) return 0;
    if (direction != CTX_BIDI_LTR && is_plain_right_to_left(text, len, direction)) {
        memset(levels, 1, (size_t)len);
        paragraph_ends[0] = len;
        paragraph_levels[0] = 1;
        return 1;
    }
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = thread_bidi(&status);
    if (!bidi) { *error = status; return -1; }
    int32_t count = -1;
    ubidi_setPara(bidi, (const UChar *)text, len, icu_level(direction), NULL, &status);
    if (U_SUCCESS(status)) {
        const UBiDiLevel *resolved = ubidi_getLevels(bidi, &status);
        int32_t paragraphs = ubidi_countParagraphs(bidi);
        if (U_SUCCESS(status) && paragraphs > capacity) status = U_BUFFER_OVERFLOW_ERROR;
        if (U_SUCCESS(status)) {
            for (int32_t i = 0; i < len; i++) levels[i] = resolved[i];
            for (int32_t p = 0; p < paragraphs && U_SUCCESS(status); p++) {
                int32_t start = 0, limit = 0;
                UBiDiLevel level = 0;
                ubidi_getParagraphByIndex(bidi, p, &start, &limit, &level, &status);
                paragraph_ends[p] = limit;
                paragraph_levels[p] = level;
            }
            if (U_SUCCESS(status)) count = paragraphs;
        }
    }
    // Leave no pointer to the caller's buffer behind in the cached object.
    UErrorCode ignored = U_ZERO_ERROR;
    ubidi_setPara(bidi, no_text, 0, 0, NULL, &ignored);
    if (count < 0) *error = status;
    return count;
}

// The conformance test's text: class k is spelled U+E000 + k, which this callback maps back.
enum { CLASS_BASE = 0xE000 };

static UCharDirection U_CALLCONV class_of_test_character(const void *context, UChar32 c) {
    (void)context;
    if (c >= CLASS_BASE && c < CLASS_BASE + CTX_BIDI_CLASS_COUNT) return (UCharDirection)(c - CLASS_BASE);
    return (UCharDirection)U_BIDI_CLASS_DEFAULT;
}

int32_t ctx_bidi_resolve_classes(const uint8_t *classes, int32_t len, int direction, uint8_t *levels,
                                 uint8_t *paragraph_level, int32_t *error) {
    *error = 0;
    UErrorCode status = U_ZERO_ERROR;
    UChar *text = malloc(sizeof(UChar) * (size_t)(len > 0 ? len : 1));
    UBiDi *bidi = ubidi_open();
    if (!text || !bidi) {
        free(text);
        ubidi_close(bidi);
        *error = U_MEMORY_ALLOCATION_ERROR;
        return -1;
    }
    for (int32_t i = 0; i < len; i++) text[i] = (UChar)(CLASS_BASE + classes[i]);
    UBiDiClassCallback *old_callback = NULL;
    const void *old_context = NULL;
    ubidi_setClassCallback(bidi, class_of_test_character, NULL, &old_callback, &old_context, &status);
    ubidi_setPara(bidi, text, len, icu_level(direction), NULL, &status);
    const UBiDiLevel *resolved = U_SUCCESS(status) ? ubidi_getLevels(bidi, &status) : NULL;
    if (resolved) {
        for (int32_t i = 0; i < len; i++) levels[i] = resolved[i];
        *paragraph_level = ubidi_getParaLevel(bidi);
    }
    ubidi_close(bidi);
    free(text);
    if (U_FAILURE(status)) { *error = status; return -1; }
    return 0;
}
