// HarfBuzz for Swift: shaping with HarfBuzz's own OpenType functions (hb-ot), so
// that fonts can be made immutable and shared between threads without a lock.
#include <hb.h>
#include <hb-ot.h>
