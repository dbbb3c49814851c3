// The default font set, compiled into the library (the bytes: EmbeddedFontData.S) so
// that the library and the CLI work on a machine with no fonts installed and need no
// resource bundle. Without the EmbeddedFonts trait there are none, and the library's
// FontSet.default is empty.
#include "CTextMeasureFonts.h"

#ifdef TEXTMEASURE_EMBEDDED_FONTS
#include "EmbeddedFontList.h"

#define DECLARE(name, file) extern const unsigned char ctmf_##name[], ctmf_##name##_end[];
CTMF_FONTS(DECLARE)

// Start and end rather than sizes: an address is a constant here, a difference of two
// addresses in another file is known only once linked.
static const struct { const char *name; const unsigned char *start, *end; } fonts[] = {
#define ENTRY(name, file) { file, ctmf_##name, ctmf_##name##_end },
    CTMF_FONTS(ENTRY)
};

size_t ctmf_font_count(void) { return sizeof(fonts) / sizeof(fonts[0]); }

ctmf_font ctmf_font_at(size_t index) {
    if (index >= ctmf_font_count()) index = 0;
    return (ctmf_font){ fonts[index].name, fonts[index].start, (size_t)(fonts[index].end - fonts[index].start) };
}

#else

size_t ctmf_font_count(void) { return 0; }

ctmf_font ctmf_font_at(size_t index) {
    (void)index;
    return (ctmf_font){ "", (const unsigned char *)"", 0 };
}

#endif
