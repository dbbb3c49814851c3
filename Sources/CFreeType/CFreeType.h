// FreeType for Swift. Function-like macros do not import, so the few we need are
// wrapped as static inline functions here; nothing else lives in this target.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include FT_MULTIPLE_MASTERS_H

static inline int cft_is_scalable(FT_Face _Nonnull f) { return FT_IS_SCALABLE(f) ? 1 : 0; }
static inline int cft_has_fixed_sizes(FT_Face _Nonnull f) { return FT_HAS_FIXED_SIZES(f) ? 1 : 0; }
static inline TT_OS2 *_Nullable cft_os2(FT_Face _Nonnull f) { return (TT_OS2 *)FT_Get_Sfnt_Table(f, FT_SFNT_OS2); }
static inline TT_Header *_Nullable cft_head(FT_Face _Nonnull f) { return (TT_Header *)FT_Get_Sfnt_Table(f, FT_SFNT_HEAD); }
static inline TT_HoriHeader *_Nullable cft_hhea(FT_Face _Nonnull f) { return (TT_HoriHeader *)FT_Get_Sfnt_Table(f, FT_SFNT_HHEA); }

// FreeType's own message for an error code (FT_Error_String returns NULL unless FreeType
// was built with error strings, as Debian's is not), by FreeType's documented recipe:
// include fterrors.h again with FT_ERRORDEF defined as switch cases.
static inline const char *_Nullable cft_error_message(FT_Error error_code) {
#undef FTERRORS_H_
#define FT_ERROR_START_LIST switch (error_code) {
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_END_LIST }
#include FT_ERRORS_H
    return NULL;
}
