#include "CTextICU.h"
#include <pthread.h>
#include <stdlib.h>
#include <unicode/ubrk.h>
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

// A line break is mandatory exactly after BK, CR, LF and NL (UAX #14 LB4, LB5; CR LF
// has no boundary between them). ubrk_getRuleStatus cannot tell: inside a range it
// broke with a dictionary (Thai, Lao, Khmer, Burmese, CJK), ICU gives every boundary
// the status of the range's last one, so words before a U+2028 all look like hard breaks.
static int ends_hard_line(uint16_t unit) {
    return unit == 0x0A || unit == 0x0B || unit == 0x0C || unit == 0x0D || unit == 0x85
        || unit == 0x2028 || unit == 0x2029;
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
        if (mandatory) mandatory[count] = ends_hard_line(text[b - 1]);
        count++;
    }
    // Leave no pointer to the caller's buffer behind in the cached iterator.
    ubrk_setText(bi, NULL, 0, &status);
    return count;
}

const char *ctx_icu_version(void) { return U_ICU_VERSION; }
