// The bytes of the default fonts, included by the assembler's `.incbin`, which every
// toolchain the manifest admits has (C23 `#embed` needs clang 19 or newer). The
// manifest puts Fonts/ on the include path, where `.incbin` looks for the files.
// Only with the EmbeddedFonts trait (on by default); without it nothing is included.
#ifdef TEXTMEASURE_EMBEDDED_FONTS
#include "EmbeddedFontList.h"

#if defined(__APPLE__)
#define SYMBOL(name) _##name
    .section __TEXT,__const
#else
#define SYMBOL(name) name
    .section .rodata
#endif

// One font: its first byte at ctmf_<name>, the byte after its last at ctmf_<name>_end.
#define FONT(name, file)               \
    .globl SYMBOL(ctmf_##name);        \
    .p2align 4;                        \
SYMBOL(ctmf_##name):                   \
    .incbin file;                      \
    .globl SYMBOL(ctmf_##name##_end);  \
SYMBOL(ctmf_##name##_end):

CTMF_FONTS(FONT)

#endif

#if defined(__ELF__)
// No executable stack: without this note the linker assumes an assembler file needs one.
    .section .note.GNU-stack,"",%progbits
#endif
