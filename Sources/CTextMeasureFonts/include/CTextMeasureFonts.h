#ifndef CTEXTMEASUREFONTS_H
#define CTEXTMEASUREFONTS_H
#include <stddef.h>

/// One font file compiled into the library, so the default font set needs no
/// font configuration, bundle or resource folder at run time.
typedef struct {
    const char *_Nonnull name;          // file name in Fonts/, e.g. "NotoSans-Regular.ttf"
    const unsigned char *_Nonnull bytes;
    size_t size;
} ctmf_font;

/// The embedded fonts in fallback order (primary first); none without the
/// EmbeddedFonts trait.
size_t ctmf_font_count(void);
/// The font at `index` (the first one for an index past the end).
ctmf_font ctmf_font_at(size_t index);

#endif
