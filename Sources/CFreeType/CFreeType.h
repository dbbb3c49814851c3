// FreeType for Swift. Function-like macros do not import, so the few we need are
// wrapped as static inline functions here; nothing else lives in this target.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H

static inline int cft_is_scalable(FT_Face _Nonnull f) { return FT_IS_SCALABLE(f) ? 1 : 0; }
static inline int cft_has_fixed_sizes(FT_Face _Nonnull f) { return FT_HAS_FIXED_SIZES(f) ? 1 : 0; }
static inline TT_OS2 *_Nullable cft_os2(FT_Face _Nonnull f) { return (TT_OS2 *)FT_Get_Sfnt_Table(f, FT_SFNT_OS2); }
static inline TT_Header *_Nullable cft_head(FT_Face _Nonnull f) { return (TT_Header *)FT_Get_Sfnt_Table(f, FT_SFNT_HEAD); }
static inline TT_HoriHeader *_Nullable cft_hhea(FT_Face _Nonnull f) { return (TT_HoriHeader *)FT_Get_Sfnt_Table(f, FT_SFNT_HHEA); }
