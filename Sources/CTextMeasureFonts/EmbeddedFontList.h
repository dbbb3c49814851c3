// The embedded fonts in fallback order (primary first): a C name and the file in Fonts/.
// One list, expanded by EmbeddedFontData.S (the bytes) and EmbeddedFonts.c (the table).
#define CTMF_FONTS(FONT)                                          \
    FONT(noto_sans, "NotoSans-Regular.ttf")                       \
    FONT(noto_sans_arabic, "NotoSansArabic-Regular.ttf")          \
    FONT(noto_sans_hebrew, "NotoSansHebrew-Regular.ttf")          \
    FONT(noto_sans_devanagari, "NotoSansDevanagari-Regular.ttf")  \
    FONT(noto_sans_thai, "NotoSansThai-Regular.ttf")              \
    FONT(droid_sans_fallback_full, "DroidSansFallbackFull.ttf")   \
    FONT(nanum_square_r, "NanumSquareR.ttf")                      \
    FONT(noto_color_emoji, "NotoColorEmoji.ttf")
