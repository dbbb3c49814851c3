#include "CTextICU.h"
#include <pthread.h>
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

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
            "", "", "@lb=loose", "@lb=normal", "@lb=strict"
        };
        UBreakIteratorType type = kind == CTX_BREAK_CHARACTER ? UBRK_CHARACTER : UBRK_LINE;
        t->iterators[kind] = ubrk_open(type, locales[kind], NULL, 0, status);
        if (U_FAILURE(*status)) { t->iterators[kind] = NULL; return NULL; }
    }
    return t->iterators[kind];
}

int32_t ctx_boundaries(int kind, const uint16_t *text, int32_t len,
                       int32_t *offsets, uint8_t *mandatory, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    *error = 0;
    if (kind < 0 || kind >= CTX_BREAK_KIND_COUNT || len < 0) { *error = U_ILLEGAL_ARGUMENT_ERROR; return -1; }
    if (len == 0) return 0;
    UBreakIterator *bi = iterator_for(kind, &status);
    if (!bi) { *error = status; return -1; }
    ubrk_setText(bi, (const UChar *)text, len, &status);
    if (U_FAILURE(status)) { *error = status; return -1; }
    int32_t count = 0;
    for (int32_t b = ubrk_next(bi); b != UBRK_DONE && count < len; b = ubrk_next(bi)) {
        offsets[count] = b;
        if (mandatory) {
            int32_t rule = ubrk_getRuleStatus(bi);
            mandatory[count] = rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT;
        }
        count++;
    }
    // Leave no pointer to the caller's buffer behind in the cached iterator.
    ubrk_setText(bi, NULL, 0, &status);
    return count;
}

_Static_assert(CTX_LB_ALPHABETIC == U_LB_ALPHABETIC, "ULineBreak");
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

const char *ctx_icu_version(void) { return U_ICU_VERSION; }
