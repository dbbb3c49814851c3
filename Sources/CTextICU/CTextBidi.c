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

// A property of every BMP code point in `bits` bits (1, 2 or 4), `classify`'s answer,
// computed a 256-code-point page at a time on first use (the answers are the linked
// ICU's). Racing threads compute the same bits.
typedef struct {
    _Atomic uint64_t words[0x10000 * 4 / 64];
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

// What a code point does in a paragraph the shortcut below resolves (4 bits): strong
// left to right (L) or right to left (R, AL); a neutral (WS, ON, S, ES, ET, CS, BN: with
// no numbers about, ES, ET and CS are neutral too); a bracket (ON with a paired
// bracket); a nonspacing mark; a European digit; a paragraph separator (B); or what the
// shortcut leaves to ICU (AN, explicit embeddings, overrides and isolates).
enum { KIND_L, KIND_R, KIND_NEUTRAL, KIND_BRACKET, KIND_NSM, KIND_EN, KIND_B, KIND_ICU };

static unsigned bidi_kind(UChar32 c) {
    switch (u_charDirection(c)) {
    case U_LEFT_TO_RIGHT: return KIND_L;
    case U_RIGHT_TO_LEFT: case U_RIGHT_TO_LEFT_ARABIC: return KIND_R;
    case U_OTHER_NEUTRAL:
        return u_getIntPropertyValue(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE) != U_BPT_NONE ? KIND_BRACKET : KIND_NEUTRAL;
    case U_WHITE_SPACE_NEUTRAL: case U_SEGMENT_SEPARATOR: case U_EUROPEAN_NUMBER_SEPARATOR:
    case U_EUROPEAN_NUMBER_TERMINATOR: case U_COMMON_NUMBER_SEPARATOR: case U_BOUNDARY_NEUTRAL:
        return KIND_NEUTRAL;
    case U_DIR_NON_SPACING_MARK: return KIND_NSM;
    case U_EUROPEAN_NUMBER: return KIND_EN;
    case U_BLOCK_SEPARATOR: return KIND_B;
    default: return KIND_ICU;
    }
}

static BMPTable kinds;

static unsigned bmp_kind(uint16_t unit) { return bmp_lookup(&kinds, 4, bidi_kind, unit); }

// Resolves `text` without ubidi when each paragraph is of one level, as most text is:
// returns the paragraph count, or -1 for text left to ICU. By paragraph (ICU's: a B
// ends one, CR LF as one), with `direction`:
// - one with nothing right to left (R, AL, AN, explicit codes) in a paragraph that is
//   not right to left (LTR, or auto with no R or AL) is all level 0, as ctx_bidi_needed
//   relies on;
// - one of R, AL and neutrals, with an R or AL among them or the direction RTL, is all
//   level 1: by UAX #9 every neutral then lies between right-to-left strong types or
//   the paragraph's ends, which are right to left (W1-W7 leave nothing else, N0-N2 make
//   all of it R), and rule L1 resets whitespace and separators to the paragraph's level,
//   1 as well.
// ICU carries context across a paragraph end: the last strong type before a paragraph
// acts on its digits (W2, W7), on a mark starting it (W1) and on its brackets (N0), so
// that `ا\n1` puts the 1 at level 2. A paragraph of the other direction than that
// context is taken only with none of those.
static int32_t resolve_one_level_paragraphs(const uint16_t *text, int32_t len, int direction, uint8_t *levels,
                                            int32_t *paragraph_ends, uint8_t *paragraph_levels) {
    enum { L = 1u << KIND_L, R = 1u << KIND_R, BRACKET = 1u << KIND_BRACKET, NSM = 1u << KIND_NSM,
           EN = 1u << KIND_EN, ICU = 1u << KIND_ICU };
    int32_t count = 0, start = 0;
    int context = -1;   // the level of the paragraphs the last strong type was in; -1: none yet
    while (start < len) {
        unsigned seen = 0;
        int32_t end = start;
        while (end < len) {
            uint16_t unit = text[end];
            unsigned kind;
            // Arabic letters and spaces, the bulk of right-to-left text, with no table look.
            if (unit - 0x0620u <= 0x064Au - 0x0620u) {
                seen |= 1u << KIND_R;
                end += 1;
                continue;
            }
            if (unit == 0x20) {
                seen |= 1u << KIND_NEUTRAL;
                end += 1;
                continue;
            }
            if (U16_IS_LEAD(unit) && end + 1 < len && U16_IS_TRAIL(text[end + 1])) {
                kind = bidi_kind(U16_GET_SUPPLEMENTARY(unit, text[end + 1]));
                end += 2;
            } else {
                kind = bmp_kind(unit);
                end += 1;
                if (kind == KIND_B) {
                    if (unit == 0x0D && end < len && text[end] == 0x0A) end += 1;
                    break;
                }
            }
            seen |= 1u << kind;
        }
        if (seen & ICU) return -1;
        int level;
        if (direction == CTX_BIDI_RTL || (direction == CTX_BIDI_AUTO && (seen & R))) {
            if (seen & (L | EN)) return -1;
            level = 1;
        } else {
            if (seen & R) return -1;
            level = 0;
        }
        if (context >= 0 && context != level && (seen & (EN | NSM | BRACKET))) return -1;
        if (seen & (L | R)) context = level;
        memset(levels + start, level, (size_t)(end - start));
        paragraph_ends[count] = end;
        paragraph_levels[count] = (uint8_t)level;
        count += 1;
        start = end;
    }
    return count;
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
    int32_t paragraphs = resolve_one_level_paragraphs(text, len, direction, levels, paragraph_ends, paragraph_levels);
    if (paragraphs >= 0) return paragraphs;
    return ctx_bidi_resolve_with_icu(text, len, direction, levels, paragraph_ends, paragraph_levels, capacity, error);
}

int32_t ctx_bidi_resolve_with_icu(const uint16_t *text, int32_t len, int direction, uint8_t *levels,
                                  int32_t *paragraph_ends, uint8_t *paragraph_levels, int32_t capacity,
                                  int32_t *error) {
    *error = 0;
    if (len <= 0) return 0;
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
