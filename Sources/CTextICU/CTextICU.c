#include "CTextICU.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uset.h>
#include <unicode/utf16.h>

#ifdef CTX_MEASURING_PROBE
static _Thread_local uint64_t measuring_calls;
#define COUNT_MEASURING_CALL() (measuring_calls++)
uint64_t ctx_measuring_calls(void) { return measuring_calls; }
#else
#define COUNT_MEASURING_CALL() ((void)0)
uint64_t ctx_measuring_calls(void) { return 0; }
#endif
void ctx_note_measuring_call(void) { COUNT_MEASURING_CALL(); }

// One set of iterators per thread: ubrk_open costs ~4 us, and an iterator must not be
// shared between threads. The key's destructor closes them when the thread exits.
typedef struct { UBreakIterator *iterators[CTX_BREAK_KIND_COUNT]; } thread_iterators;

static pthread_key_t iterators_key;
static pthread_once_t iterators_once = PTHREAD_ONCE_INIT;

static void close_thread_iterators(void *p) {
    thread_iterators *t = p;
    for (int i = 0; i < CTX_BREAK_KIND_COUNT; i++) if (t->iterators[i]) ubrk_close(t->iterators[i]);
    free(t);
}

static void make_key(void) { pthread_key_create(&iterators_key, close_thread_iterators); }

static UBreakIterator *iterator_for(int kind, UErrorCode *status) {
    pthread_once(&iterators_once, make_key);
    thread_iterators *t = pthread_getspecific(iterators_key);
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
        pthread_setspecific(iterators_key, t);
    }
    if (!t->iterators[kind]) {
        static const char *const locales[CTX_BREAK_KIND_COUNT] = {
            "", "", "@lb=normal", "@lb=loose", "@lb=strict"
        };
        UBreakIteratorType type = kind == CTX_BREAK_CHARACTER ? UBRK_CHARACTER : UBRK_LINE;
        t->iterators[kind] = ubrk_open(type, locales[kind], NULL, 0, status);
        if (U_FAILURE(*status)) { t->iterators[kind] = NULL; return NULL; }
    }
    return t->iterators[kind];
}

// A line break is mandatory exactly after BK, CR, LF and NL (ctx_ends_hard_line).
// ubrk_getRuleStatus cannot tell: inside a range it broke with a dictionary (Thai,
// Lao, Khmer, Burmese, CJK), ICU gives every boundary the status of the range's last
// one, so words before a U+2028 all look like hard breaks.
int32_t ctx_boundaries(int kind, const uint16_t *text, int32_t len,
                       int32_t *offsets, uint8_t *mandatory, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    *error = 0;
    COUNT_MEASURING_CALL();
    if (kind < 0 || kind >= CTX_BREAK_KIND_COUNT || len < 0) { *error = U_ILLEGAL_ARGUMENT_ERROR; return -1; }
    if (len == 0) return 0;
    UBreakIterator *bi = iterator_for(kind, &status);
    if (!bi) { *error = status; return -1; }
    ubrk_setText(bi, (const UChar *)text, len, &status);
    if (U_FAILURE(status)) { *error = status; return -1; }
    int32_t count = 0;
    for (int32_t b = ubrk_next(bi); b != UBRK_DONE && count < len; b = ubrk_next(bi)) {
        offsets[count] = b;
        if (mandatory) mandatory[count] = ctx_ends_hard_line(text[b - 1]);
        count++;
    }
    // Leave no pointer to the caller's buffer behind in the cached iterator.
    ubrk_setText(bi, NULL, 0, &status);
    return count;
}

_Static_assert(CTX_LB_AMBIGUOUS == U_LB_AMBIGUOUS, "ULineBreak");
_Static_assert(CTX_LB_ALPHABETIC == U_LB_ALPHABETIC, "ULineBreak");
_Static_assert(CTX_LB_NUMERIC == U_LB_NUMERIC, "ULineBreak");
_Static_assert(CTX_LB_POSTFIX_NUMERIC == U_LB_POSTFIX_NUMERIC, "ULineBreak");
_Static_assert(CTX_LB_PREFIX_NUMERIC == U_LB_PREFIX_NUMERIC, "ULineBreak");
_Static_assert(CTX_LB_COMPLEX_CONTEXT == U_LB_COMPLEX_CONTEXT, "ULineBreak");
_Static_assert(CTX_LB_CLOSE_PUNCTUATION == U_LB_CLOSE_PUNCTUATION, "ULineBreak");
_Static_assert(CTX_LB_COMBINING_MARK == U_LB_COMBINING_MARK, "ULineBreak");
_Static_assert(CTX_LB_EXCLAMATION == U_LB_EXCLAMATION, "ULineBreak");
_Static_assert(CTX_LB_GLUE == U_LB_GLUE, "ULineBreak");
_Static_assert(CTX_LB_HYPHEN == U_LB_HYPHEN, "ULineBreak");
_Static_assert(CTX_LB_INFIX_NUMERIC == U_LB_INFIX_NUMERIC, "ULineBreak");
_Static_assert(CTX_LB_NONSTARTER == U_LB_NONSTARTER, "ULineBreak");
_Static_assert(CTX_LB_OPEN_PUNCTUATION == U_LB_OPEN_PUNCTUATION, "ULineBreak");
_Static_assert(CTX_LB_QUOTATION == U_LB_QUOTATION, "ULineBreak");
_Static_assert(CTX_LB_BREAK_AFTER == U_LB_BREAK_AFTER, "ULineBreak");
_Static_assert(CTX_LB_BREAK_SYMBOLS == U_LB_BREAK_SYMBOLS, "ULineBreak");
_Static_assert(CTX_LB_ZWSPACE == U_LB_ZWSPACE, "ULineBreak");
_Static_assert(CTX_LB_WORD_JOINER == U_LB_WORD_JOINER, "ULineBreak");
_Static_assert(CTX_LB_CLOSE_PARENTHESIS == U_LB_CLOSE_PARENTHESIS, "ULineBreak");
_Static_assert(CTX_LB_HEBREW_LETTER == U_LB_HEBREW_LETTER, "ULineBreak");
_Static_assert(CTX_LB_ZWJ == U_LB_ZWJ, "ULineBreak");

int32_t ctx_line_break_class(uint32_t scalar) {
    return u_getIntPropertyValue((UChar32)scalar, UCHAR_LINE_BREAK);
}

int32_t ctx_is_east_asian(uint32_t scalar) {
    int32_t width = u_getIntPropertyValue((UChar32)scalar, UCHAR_EAST_ASIAN_WIDTH);
    return width == U_EA_FULLWIDTH || width == U_EA_WIDE || width == U_EA_HALFWIDTH;
}

// Two facts per BMP code point, filled from ICU's own properties a 256-code-point
// page at a time on first use (so the answers are always the linked ICU's):
//
// inert: never joins a grapheme cluster with a neighbour: grapheme class Other,
// Control or LF, and not Extended_Pictographic (GB11) or a surrogate. Every rule of
// UAX #29 that keeps two code points together (GB3, GB6-GB9c, GB11-GB13) needs one
// of them outside this set, so between two of them there is always a boundary, and
// any rule that looks further back starts afresh there.
//
// joins previous: shaped as part of the cluster before it: a mark (Mn, Mc, Me), a
// grapheme extender or spacing mark, a ZWJ, or FRACTION SLASH (HarfBuzz's
// continuation characters, which it merges into the preceding cluster).
static _Atomic uint64_t inert_bits[0x10000 / 64];
static _Atomic uint64_t joins_bits[0x10000 / 64];
static _Atomic uint8_t page_ready[0x10000 / 256];

static int is_inert_code_point(UChar32 c) {
    int gcb = u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK);
    return (gcb == U_GCB_OTHER || gcb == U_GCB_CONTROL || gcb == U_GCB_LF) && !U_IS_SURROGATE(c) &&
           !u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC);
}

// With the code point's general category and grapheme cluster break given, so that
// ctx_cluster_contexts, run for all of the BMP per font set, looks each up once.
static int joins_previous(UChar32 c, int8_t type, int gcb) {
    return type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK || type == U_COMBINING_SPACING_MARK ||
           gcb == U_GCB_EXTEND || gcb == U_GCB_ZWJ || gcb == U_GCB_SPACING_MARK || c == 0x2044;
}

static int joins_previous_code_point(UChar32 c) {
    return joins_previous(c, u_charType(c), u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK));
}

// Binary properties ctx_cluster_contexts reads, as bits.
enum { PICTOGRAPHIC = 1, MIRRORED = 2, IGNORABLE = 4 };

static int cluster_context(UChar32 c, int8_t type, int gcb, int properties) {
    if (U_IS_SURROGATE(c)) return 0;
    int bits = 0;
    int alone = (gcb == U_GCB_OTHER || gcb == U_GCB_LV || gcb == U_GCB_LVT) &&
                (U_MASK(type) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_P_MASK | U_GC_S_MASK | U_GC_ZS_MASK)) &&
                !(properties & PICTOGRAPHIC);
    if (alone && (U_MASK(type) & U_GC_L_MASK)) bits |= CTX_ALONE_LETTER;
    if (alone && !(properties & (MIRRORED | IGNORABLE))) bits |= CTX_ALONE_GRAPHIC;
    if (gcb == U_GCB_PREPEND || gcb == U_GCB_L) bits |= CTX_JOINS_NEXT;
    if (joins_previous(c, type, gcb) || gcb == U_GCB_V || gcb == U_GCB_T) bits |= CTX_JOINS_PREVIOUS;
    return bits;
}

// `bit` set in `out` for the BMP code points of a binary property, range by range.
static int fill_bits(UProperty property, uint8_t *out, uint8_t bit) {
    UErrorCode error = U_ZERO_ERROR;
    const USet *set = u_getBinaryPropertySet(property, &error);
    if (U_FAILURE(error)) return 0;
    int32_t count = uset_getItemCount(set);
    for (int32_t item = 0; item < count; item++) {
        UChar32 start, end;
        if (uset_getItem(set, item, &start, &end, NULL, 0, &error) != 0 || U_FAILURE(error)) return 0;
        for (UChar32 c = start; c <= end && c < 0x10000; c++) out[c] |= bit;
    }
    return 1;
}

void ctx_cluster_contexts(uint8_t *out) {
    // ICU's sets give the binary properties in a few hundred ranges, for less than
    // asking each of 65,536 code points three more properties costs.
    uint8_t *properties = calloc(0x10000, 1);
    int ranges = properties && fill_bits(UCHAR_EXTENDED_PICTOGRAPHIC, properties, PICTOGRAPHIC) &&
                 fill_bits(UCHAR_BIDI_MIRRORED, properties, MIRRORED) &&
                 fill_bits(UCHAR_DEFAULT_IGNORABLE_CODE_POINT, properties, IGNORABLE);
    // Without them (out of memory), no code point has bits: nothing is context-free
    // or nominal, and all text is shaped by HarfBuzz, which is exact.
    for (UChar32 c = 0; c < 0x10000; c++) {
        out[c] = ranges ? (uint8_t)cluster_context(c, u_charType(c), u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK),
                                                   properties[c])
                        : 0;
    }
    free(properties);
}

static void fill_page(unsigned page) {
    for (unsigned word = 0; word < 4; word++) {
        uint64_t inert = 0, joins = 0;
        for (unsigned bit = 0; bit < 64; bit++) {
            UChar32 c = (UChar32)(page * 256 + word * 64 + bit);
            if (is_inert_code_point(c)) inert |= (uint64_t)1 << bit;
            if (joins_previous_code_point(c)) joins |= (uint64_t)1 << bit;
        }
        atomic_store_explicit(&inert_bits[page * 4 + word], inert, memory_order_relaxed);
        atomic_store_explicit(&joins_bits[page * 4 + word], joins, memory_order_relaxed);
    }
    // Threads racing here compute the same bits; release publishes them with the flag.
    atomic_store_explicit(&page_ready[page], 1, memory_order_release);
}

static inline uint64_t bmp_bit(_Atomic uint64_t *bits, uint16_t unit) {
    if (!atomic_load_explicit(&page_ready[unit >> 8], memory_order_acquire)) fill_page(unit >> 8);
    return (atomic_load_explicit(&bits[unit >> 6], memory_order_relaxed) >> (unit & 63)) & 1;
}

// ASCII is inert but for CR (which joins a following LF).
static inline int is_inert(uint16_t unit) { return unit < 0x80 ? unit != 0x0D : (int)bmp_bit(inert_bits, unit); }

int ctx_joins_previous(uint32_t c) {
    if (c < 0x10000) return (int)bmp_bit(joins_bits, (uint16_t)c);
    return c <= 0x10FFFF && joins_previous_code_point((UChar32)c);
}

int ctx_paired_bracket(uint32_t c, uint32_t *pair) {
    if (c > 0x10FFFF) return 0;
    switch (u_getIntPropertyValue((UChar32)c, UCHAR_BIDI_PAIRED_BRACKET_TYPE)) {
    case U_BPT_OPEN: *pair = (uint32_t)u_getBidiPairedBracket((UChar32)c); return 1;
    case U_BPT_CLOSE: *pair = (uint32_t)u_getBidiPairedBracket((UChar32)c); return -1;
    default: return 0;
    }
}

// How many boundaries between inert code points in a row end a stretch handed to
// ICU, so that nearby marks or emoji share one ubrk_setText.
enum { QUIET_PAIRS_TO_END_STRETCH = 8 };

typedef struct {
    int32_t *out;
    int32_t count;
    const int32_t *forced;
    int32_t forced_count;
    int32_t next_forced;
} boundary_writer;

// Writes `b` after any forced boundary before it, once.
static inline void emit(boundary_writer *w, int32_t b) {
    while (w->next_forced < w->forced_count && w->forced[w->next_forced] < b)
        w->out[w->count++] = w->forced[w->next_forced++];
    if (w->next_forced < w->forced_count && w->forced[w->next_forced] == b) w->next_forced++;
    w->out[w->count++] = b;
}

int32_t ctx_clusters(const uint16_t *text, int32_t start, int32_t end,
                     const int32_t *forced, int32_t forced_count, int32_t *out, int32_t *error) {
    *error = 0;
    COUNT_MEASURING_CALL();
    if (end <= start) return 0;
    boundary_writer w = { out, 0, forced, forced ? forced_count : 0, 0 };
    UBreakIterator *bi = NULL;
    int32_t safe = start;          // the last boundary known to restart every rule
    int32_t p = start + 1;         // the candidate boundary between p - 1 and p
    int previous_inert = is_inert(text[start]);
    while (p < end) {
        int inert = is_inert(text[p]);
        if (previous_inert && inert) {   // and text[p] is inert for the next pair too
            emit(&w, p);
            safe = p++;
            continue;
        }
        // A stretch ICU must see: from `safe` to the first of enough quiet boundaries.
        int32_t stretch_end = end, quiet = 0, first_quiet = 0;
        for (int32_t q = p + 1; q < end; q++) {
            if (is_inert(text[q - 1]) && is_inert(text[q])) {
                if (quiet++ == 0) first_quiet = q;
                if (quiet == QUIET_PAIRS_TO_END_STRETCH) { stretch_end = first_quiet; break; }
            } else {
                quiet = 0;
            }
        }
        if (quiet > 0 && stretch_end == end) stretch_end = first_quiet;
        UErrorCode status = U_ZERO_ERROR;
        if (!bi) bi = iterator_for(CTX_BREAK_CHARACTER, &status);
        if (!bi) { *error = status; return -1; }
        ubrk_setText(bi, (const UChar *)text + safe, stretch_end - safe, &status);
        if (U_FAILURE(status)) { *error = status; return -1; }
        for (int32_t b = ubrk_next(bi); b != UBRK_DONE; b = ubrk_next(bi)) emit(&w, safe + b);
        safe = stretch_end;
        p = stretch_end + 1;
        if (stretch_end < end) previous_inert = is_inert(text[stretch_end]);
    }
    if (w.count == 0 || w.out[w.count - 1] < end) emit(&w, end);
    if (bi) {
        // Leave no pointer to the caller's buffer behind in the cached iterator.
        UErrorCode status = U_ZERO_ERROR;
        ubrk_setText(bi, NULL, 0, &status);
    }
    return w.count;
}

