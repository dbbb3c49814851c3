// The default font set, embedded with C23 #embed so that the library and the CLI
// work on a machine with no fonts installed and need no resource bundle.
// The order here is the fallback order of FontSet.default.
#include "CTextMeasureFonts.h"
#pragma clang diagnostic ignored "-Wc23-extensions"


static const unsigned char noto_sans[] = {
#embed "../../Fonts/NotoSans-Regular.ttf"
};
static const unsigned char noto_sans_arabic[] = {
#embed "../../Fonts/NotoSansArabic-Regular.ttf"
};
static const unsigned char noto_sans_hebrew[] = {
#embed "../../Fonts/NotoSansHebrew-Regular.ttf"
};
static const unsigned char noto_sans_devanagari[] = {
#embed "../../Fonts/NotoSansDevanagari-Regular.ttf"
};
static const unsigned char noto_sans_thai[] = {
#embed "../../Fonts/NotoSansThai-Regular.ttf"
};
static const unsigned char droid_sans_fallback_full[] = {
#embed "../../Fonts/DroidSansFallbackFull.ttf"
};
static const unsigned char nanum_square_r[] = {
#embed "../../Fonts/NanumSquareR.ttf"
};
static const unsigned char noto_color_emoji[] = {
#embed "../../Fonts/NotoColorEmoji.ttf"
};

static const ctmf_font fonts[] = {
    { "NotoSans-Regular.ttf", noto_sans, sizeof(noto_sans) },
    { "NotoSansArabic-Regular.ttf", noto_sans_arabic, sizeof(noto_sans_arabic) },
    { "NotoSansHebrew-Regular.ttf", noto_sans_hebrew, sizeof(noto_sans_hebrew) },
    { "NotoSansDevanagari-Regular.ttf", noto_sans_devanagari, sizeof(noto_sans_devanagari) },
    { "NotoSansThai-Regular.ttf", noto_sans_thai, sizeof(noto_sans_thai) },
    { "DroidSansFallbackFull.ttf", droid_sans_fallback_full, sizeof(droid_sans_fallback_full) },
    { "NanumSquareR.ttf", nanum_square_r, sizeof(nanum_square_r) },
    { "NotoColorEmoji.ttf", noto_color_emoji, sizeof(noto_color_emoji) },
};

size_t ctmf_font_count(void) { return sizeof(fonts) / sizeof(fonts[0]); }
const ctmf_font *ctmf_font_at(size_t index) { return &fonts[index < ctmf_font_count() ? index : 0]; }
