#ifndef CTEXTICU_H
#define CTEXTICU_H
// A thin C wrapper over ICU's break iterators. This header deliberately contains no
// ICU types: Swift modules that import Foundation cannot also see the system ICU
// headers (Foundation's own ICU clashes with them), and ICU's versioned symbol names
// (ubrk_open_72) are resolved here by ICU's macros rather than spelled in Swift.
#include <stdint.h>

/// The kinds of boundaries ctx_boundaries can find.
enum {
    CTX_BREAK_CHARACTER = 0,   ///< extended grapheme cluster boundaries (UAX #29)
    CTX_BREAK_LINE = 1,        ///< line-break opportunities, ICU's default tailoring (UAX #14)
    CTX_BREAK_LINE_NORMAL = 2, ///< CSS line-break: normal (ICU "lb=normal")
    CTX_BREAK_LINE_LOOSE = 3,  ///< CSS line-break: loose (ICU "lb=loose")
    CTX_BREAK_LINE_STRICT = 4, ///< CSS line-break: strict (ICU "lb=strict")
    CTX_BREAK_KIND_COUNT = 5
};

/// 1 if a line must end after the code unit `unit`: BK, CR, LF and NL (UAX #14 LB4,
/// LB5), which are LF, VT, FF, CR, NEL, U+2028 and U+2029; else 0. The one definition
/// of the mandatory-break set, for the C below and for Swift (`Scalars.isMandatoryBreak`).
static inline int ctx_ends_hard_line(uint16_t unit) {
    return unit == 0x0A || unit == 0x0B || unit == 0x0C || unit == 0x0D || unit == 0x85
        || unit == 0x2028 || unit == 0x2029;
}

/// Finds every boundary of the given kind in `text` after offset 0; the end of the
/// text is included. Offsets are UTF-16 code units, ascending.
///
/// `offsets` must have room for `len` entries (there are at most `len` boundaries
/// after 0). When `mandatory` is non-null, it receives 1 for a mandatory line break
/// (after a BK, CR, LF or NL character) and 0 otherwise.
///
/// Break iterators are opened once per thread and per kind, reused, and closed when
/// the thread exits; the call keeps no pointer to `text` after it returns.
///
/// Returns the number of boundaries written, or -1 with `*error` set to the ICU
/// error code when ICU fails.
int32_t ctx_boundaries(int kind, const uint16_t *_Nonnull text, int32_t len,
                       int32_t *_Nonnull offsets, uint8_t *_Nullable mandatory,
                       int32_t *_Nonnull error);

/// Line-break classes (UAX #14) that tailorings test for. The values are ICU's
/// ULineBreak values (checked against ICU's header in CTextICU.c).
enum {
    CTX_LB_AMBIGUOUS = 1,           ///< AI
    CTX_LB_ALPHABETIC = 2,          ///< AL
    CTX_LB_CLOSE_PUNCTUATION = 8,   ///< CL
    CTX_LB_COMBINING_MARK = 9,      ///< CM
    CTX_LB_EXCLAMATION = 11,        ///< EX
    CTX_LB_GLUE = 12,               ///< GL
    CTX_LB_HYPHEN = 13,             ///< HY
    CTX_LB_INFIX_NUMERIC = 16,      ///< IS
    CTX_LB_NONSTARTER = 18,         ///< NS
    CTX_LB_NUMERIC = 19,            ///< NU
    CTX_LB_OPEN_PUNCTUATION = 20,   ///< OP
    CTX_LB_POSTFIX_NUMERIC = 21,    ///< PO
    CTX_LB_PREFIX_NUMERIC = 22,     ///< PR
    CTX_LB_QUOTATION = 23,          ///< QU
    CTX_LB_BREAK_AFTER = 4,         ///< BA
    CTX_LB_COMPLEX_CONTEXT = 24,    ///< SA
    CTX_LB_BREAK_SYMBOLS = 27,      ///< SY
    CTX_LB_ZWSPACE = 28,            ///< ZW
    CTX_LB_WORD_JOINER = 30,        ///< WJ
    CTX_LB_CLOSE_PARENTHESIS = 36,  ///< CP
    CTX_LB_HEBREW_LETTER = 38,      ///< HL
    CTX_LB_ZWJ = 42,                ///< ZWJ
};

/// The UAX #14 line-break class of a code point, as ICU's ULineBreak value.
int32_t ctx_line_break_class(uint32_t scalar);

/// True when a code point's East Asian Width is Fullwidth, Wide or Halfwidth
/// (UAX #14's `$EastAsian`).
int32_t ctx_is_east_asian(uint32_t scalar);

/// The grapheme-cluster boundaries of `text[start..<end]` after `start`, `end`
/// included, merged with the ascending offsets `forced[0..<forced_count]` (line-break
/// opportunities, which must also end clusters); `start` must be a boundary of both.
///
/// The answer is ICU's, but ICU is asked only where it could matter: between two
/// code points that can never join a cluster (grapheme class Other, Control or LF,
/// and not Extended_Pictographic) there is always a boundary, whatever surrounds
/// them, so runs of such code points (most Latin, CJK and Cyrillic text) are cut
/// without ICU, and ICU's character iterator sees only the stretches between them.
///
/// `out` must have room for `end - start + forced_count` entries. Returns the number
/// of boundaries written, or -1 with `*error` set to ICU's error code.
int32_t ctx_clusters(const uint16_t *_Nonnull text, int32_t start, int32_t end,
                     const int32_t *_Nullable forced, int32_t forced_count,
                     int32_t *_Nonnull out, int32_t *_Nonnull error);

/// 1 if code point `c` is shaped as part of the cluster before it (a mark, a grapheme
/// extender or spacing mark, a ZWJ, FRACTION SLASH: HarfBuzz's continuation
/// characters), else 0. A text cut just before such a character shapes differently.
int ctx_joins_previous(uint32_t c);

/// The bracket `c` pairs with (UAX #9 Bidi_Paired_Bracket) when `c` is an opening
/// (returns 1) or closing (returns -1) paired bracket, written to `*pair`; 0 for
/// every other code point. Blink's script itemization pairs brackets with it.
int ctx_paired_bracket(uint32_t c, uint32_t *_Nonnull pair);

// What a shape-cache break between letters needs to know of a code point (bits):
// CTX_ALONE_LETTER: a letter (general category L*, not pictographic) that forms a
//   grapheme cluster by itself unless something joins it (Grapheme_Cluster_Break
//   Other, LV or LVT: a precomposed Hangul syllable);
// CTX_JOINS_NEXT: joins the code point after it into its cluster (Prepend, a leading jamo);
// CTX_JOINS_PREVIOUS: joins the one before it (ctx_joins_previous, or a vowel or trailing jamo);
// CTX_ALONE_GRAPHIC: a letter, number, punctuation, symbol or space separator that
//   forms a grapheme cluster by itself unless something joins it, and that HarfBuzz
//   neither mirrors (not Bidi_Mirrored) nor hides (not Default_Ignorable), not pictographic.
enum { CTX_ALONE_LETTER = 1, CTX_JOINS_NEXT = 2, CTX_JOINS_PREVIOUS = 4, CTX_ALONE_GRAPHIC = 8 };
/// Writes the bits of each BMP code point to `out` (0x10000 entries).
void ctx_cluster_contexts(uint8_t *_Nonnull out);

/// Paragraph directions for ctx_bidi_resolve.
enum {
    CTX_BIDI_AUTO = 0,   ///< each paragraph takes the direction of its first strong character, else LTR
    CTX_BIDI_LTR = 1,
    CTX_BIDI_RTL = 2,
};

/// Bidi classes (UAX #9), as ICU's UCharDirection values (checked in CTextICU.c).
enum {
    CTX_BIDI_L = 0, CTX_BIDI_R = 1, CTX_BIDI_EN = 2, CTX_BIDI_ES = 3, CTX_BIDI_ET = 4, CTX_BIDI_AN = 5,
    CTX_BIDI_CS = 6, CTX_BIDI_B = 7, CTX_BIDI_S = 8, CTX_BIDI_WS = 9, CTX_BIDI_ON = 10, CTX_BIDI_LRE = 11,
    CTX_BIDI_LRO = 12, CTX_BIDI_AL = 13, CTX_BIDI_RLE = 14, CTX_BIDI_RLO = 15, CTX_BIDI_PDF = 16,
    CTX_BIDI_NSM = 17, CTX_BIDI_BN = 18, CTX_BIDI_FSI = 19, CTX_BIDI_LRI = 20, CTX_BIDI_RLI = 21,
    CTX_BIDI_PDI = 22, CTX_BIDI_CLASS_COUNT = 23
};

/// 1 if code point `c` (or a lone surrogate) is, by its range alone, none of what
/// ctx_bidi_needed looks for (R, AL, AN or an explicit control), unassigned ones too:
/// everything below U+0590 (Hebrew); from Devanagari to Hangul (U+0900-U+D7FF: the
/// scripts of India and South-East Asia, general punctuation but RLM and the explicit
/// controls U+202A-U+202E and U+2066-U+2069, symbols, CJK punctuation, kana, CJK, Yi,
/// Hangul); the fullwidth and halfwidth forms (U+FF00-U+FFEF); and beyond the BMP all
/// but U+10800-U+10FFF and U+1E800-U+1EFFF (emoji pass). The right-to-left scripts lie
/// in the ranges left out. The one definition, for the C below and for Swift
/// (preparation's UTF-8 walk). The common cases come first, each range one unsigned
/// comparison (`c - first < count`).
static inline int ctx_bidi_passes(uint32_t c) {
    if (c < 0x0590 || c - 0x2070u < 0xD800u - 0x2070u || c - 0x0900u < 0x2000u - 0x0900u) return 1;
    if (c < 0x10000) {
        return (c - 0x2000u < 0x70u && c != 0x200F && c - 0x202Au > 4u && c < 0x2066) || c - 0xFF00u < 0xF0u;
    }
    return c < 0x10800 || c - 0x11000u < 0x1E800u - 0x11000u || c >= 0x1F000;
}

/// 1 if some code point of `text` could take an embedding level other than 0 in a
/// left-to-right paragraph (bidi class R, AL or AN, or an explicit embedding,
/// override or isolate), else 0: text for which ctx_bidi_resolve can be skipped
/// when the paragraph direction is auto or LTR. No ICU call for BMP text after the
/// first use of each 256-code-point page.
int32_t ctx_bidi_needed(const uint16_t *_Nonnull text, int32_t len);

/// Runs the Unicode Bidirectional Algorithm (ICU ubidi) over `text`, one paragraph
/// per paragraph separator (class B), with `direction` (CTX_BIDI_AUTO, _LTR, _RTL).
///
/// `levels` (room for `len`) gets the embedding level of every UTF-16 unit, rule L1
/// applied at paragraph ends and before segment separators. `paragraph_ends` and
/// `paragraph_levels` (room for `capacity` entries; `capacity` >= the number of
/// paragraphs, at most `len`) get each paragraph's end offset and base level.
/// Uses one ubidi object per thread; keeps no pointer to `text` after returning.
///
/// Returns the number of paragraphs, or -1 with `*error` set to ICU's error code.
int32_t ctx_bidi_resolve(const uint16_t *_Nonnull text, int32_t len, int direction, uint8_t *_Nonnull levels,
                         int32_t *_Nonnull paragraph_ends, uint8_t *_Nonnull paragraph_levels, int32_t capacity,
                         int32_t *_Nonnull error);

/// ctx_bidi_resolve without its shortcut for paragraphs of one level: always through
/// ubidi. For tests, which check the shortcut against it.
int32_t ctx_bidi_resolve_with_icu(const uint16_t *_Nonnull text, int32_t len, int direction,
                                  uint8_t *_Nonnull levels, int32_t *_Nonnull paragraph_ends,
                                  uint8_t *_Nonnull paragraph_levels, int32_t capacity, int32_t *_Nonnull error);

/// For conformance tests (BidiTest.txt): resolves a sequence of bidi classes
/// (CTX_BIDI_*) as one paragraph with `direction`, as ctx_bidi_resolve resolves
/// text. `levels` gets `len` levels; `*paragraph_level` the base level.
/// Returns 0, or -1 with `*error` set to ICU's error code.
int32_t ctx_bidi_resolve_classes(const uint8_t *_Nonnull classes, int32_t len, int direction,
                                 uint8_t *_Nonnull levels, uint8_t *_Nonnull paragraph_level,
                                 int32_t *_Nonnull error);

/// A probe for tests: the number of calls into ICU and HarfBuzz made on the calling
/// thread (ICU calls are counted here; the shaper reports each hb_shape with
/// ctx_note_measuring_call). Laying out a prepared text must not change it.
/// Counted only in debug builds (CTX_MEASURING_PROBE, which Package.swift defines for
/// them); a release build counts nothing and always answers 0.
uint64_t ctx_measuring_calls(void);
void ctx_note_measuring_call(void);

#endif
