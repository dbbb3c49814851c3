import CHarfBuzz
import CTextICU

/// Blink's line-break opportunities for `white-space: pre-wrap; word-break: normal;
/// line-break: auto`, built on ICU's CSS-normal opportunities (`@lb=normal`, which is
/// what Chromium's own ICU data makes the default).
///
/// Blink does not simply take ICU's answer. For each place between two code units it
/// asks, in this order (`LazyLineBreakIterator::NextBreakablePosition`), and the first
/// rule with an opinion decides:
///
/// 1. `afterSpaceRun`: never before a space, tab or newline; always after a run of them.
/// 2. `controls`: never next to another control character or space.
/// 3. `hyphenBeforeDigit`: `2024-|03` and `ABCD-|1234`, but not `x -|1` (a minus sign).
/// 4. `asciiPairs`: between two printable ASCII characters, Blink's own table, which
///    breaks only after `-` and `?` and before `(`, `[`, `{` and `<`. So URLs and
///    paths (`/var/log/x`) break only where a word too long for the line must.
/// 5. Otherwise ICU, whose Unicode 15.0 rules (ICU 72) are brought up to the
///    Unicode 15.1 rules of Chromium's ICU by `eastAsianQuotes`.
///
/// Blink reads no text before a line's start, so a hyphen that starts a line is
/// word-initial there (`hyphenHoldsAtLineStart`, applied by line fitting).
///
/// Mandatory breaks are ICU's and always kept.
@usableFromInline   // fitTolerance is inlined into line fitting
package enum BrowserTailoring {
    /// How far a line may overflow and still fit, in layout units (1/64 px): Blink lets a line be
    /// one layout unit wider than the box (`LineBreaker::AvailableWidthToFit`), to
    /// absorb float rounding in its widths.
    @inlinable package static var fitTolerance: Int { 1 }

    /// Replaces ICU's `@lb=normal` opportunities for `text`, the `count` ascending
    /// `offsets` (with `mandatory[i]` nonzero for a mandatory one), with Blink's, in
    /// place, and returns how many there are now. `marks` is scratch memory for
    /// `text.count + 1` bytes, which first take ICU's answer: there is never more
    /// than one opportunity per code unit, so the new ones fit where the old ones were.
    static func tailor(offsets: UnsafeMutablePointer<Int32>, mandatory: UnsafeMutablePointer<UInt8>, count: Int,
                       in text: UnsafeBufferPointer<UInt16>, marks: UnsafeMutablePointer<UInt8>) -> Int {
        guard text.count > 1 else { return count }
        marks.initialize(repeating: 0, count: text.count + 1)   // 1: soft, 2: mandatory
        for i in 0..<count { marks[Int(offsets[i])] = mandatory[i] != 0 ? 2 : 1 }
        var tailored = 0
        func append(_ offset: Int, isMandatory: Bool) {
            offsets[tailored] = Int32(offset)
            mandatory[tailored] = isMandatory ? 1 : 0
            tailored += 1
        }
        for offset in 1..<text.count {
            if marks[offset] == 2 {
                append(offset, isMandatory: true)
            } else if isBreak(at: offset, in: text, icu: marks[offset] == 1) {
                append(offset, isMandatory: false)
            }
        }
        append(text.count, isMandatory: marks[text.count] == 2)
        return tailored
    }

    /// Whether Blink breaks before `text[offset]`, given ICU's answer there.
    static func isBreak(at offset: Int, in text: UnsafeBufferPointer<UInt16>, icu: Bool) -> Bool {
        if text[offset] & 0xFC00 == 0xDC00, text[offset - 1] & 0xFC00 == 0xD800 { return false }
        let lastLast = offset >= 2 ? text[offset - 2] : 0, last = text[offset - 1], current = text[offset]
        // The two commonest cases first, each what the rules below decide: inside a word
        // of ASCII letters or digits no rule breaks (`asciiPairs`, or a control or space
        // after it), and between two non-ASCII units none of the ASCII rules has an opinion.
        if current < 0x80, isASCIIDigit(last) || isASCIILetter(last) { return false }
        if last >= 0x80, current >= 0x80 { return icu || eastAsianQuotes(at: offset, in: text) }
        if let decision = afterSpaceRun(lastLast, last, current) ?? controls(lastLast, last, current)
            ?? hyphenBeforeDigit(lastLast, last, current) ?? asciiPairs(lastLast, last, current) {
            return decision
        }
        return icu || eastAsianQuotes(at: offset, in: text)
    }

    /// Whether a line that starts with the hyphen at `offset` keeps it with what
    /// follows, where in mid-line Blink may break after it. Blink's break iterator
    /// reads no text before the line's start, so there the hyphen is word-initial:
    /// `-|2024` needs a letter or digit before the hyphen, and UAX #14 keeps a
    /// word-initial hyphen with the letter after it (`-|धीरे`, LB20a). Under
    /// `word-break: break-all` (`breakAll`) Blink's table, which reads only the two code
    /// points, still breaks there where it breaks mid-line (`-|1`, `‐|x`).
    package static func hyphenHoldsAtLineStart(_ text: UnsafeBufferPointer<UInt16>, at offset: Int,
                                               breakAll: Bool = false) -> Bool {
        guard offset + 1 < text.count, text[offset] == 0x2D || text[offset] == 0x2010,
              !(breakAll && breaksAll(before: offset + 1, in: text)) else { return false }
        let next = text[offset + 1]
        if next < 0x80 { return text[offset] == 0x2D && isASCIIDigit(next) }
        return isLetterForLB20a(Scalars.decode(text, at: offset + 1).scalar)
    }

    // MARK: - word-break: break-all

    /// Whether Blink breaks before `text[offset]` under `word-break: break-all` where its
    /// rules above and ICU do not: its own table by line-break class
    /// (`kBreakAllLineBreakClassTable`), which `LazyLineBreakIterator` asks after the ASCII
    /// table's "yes" and before its "no". Letters, digits and `BA` break before letters,
    /// digits, hyphens and `BA`, and most of them before `(` (`OP`), `$` (`PR`) and Thai
    /// (`SA`); a closing or other punctuation before fewer, a hyphen only before a digit.
    /// Nothing is added before a space or after an ideograph, Hangul, a space or a mark:
    /// there the rules decide. The class before is that of the code point just before
    /// `offset` (a mark's own, not its base's: Blink asks afresh at each offset).
    ///
    /// Thai letters and their vowel signs are all `SA`, but Chromium breaks no letter from
    /// a sign that extends it (`ที่` stays whole), though it does before a spacing one
    /// (`ค|ำ`): no break before a grapheme extender.
    static func breaksAll(before offset: Int, in text: UnsafeBufferPointer<UInt16>) -> Bool {
        guard offset > 0, offset < text.count, !isBreakableSpace(text[offset]),
              !(UTF16.isTrailSurrogate(text[offset]) && UTF16.isLeadSurrogate(text[offset - 1])),
              let before = scalar(endingAt: offset, in: text) else { return false }
        let row = breakAllRow(breakAllClass(before))
        let scalar = Scalars.decode(text, at: offset).scalar
        let after = breakAllClass(scalar)
        guard after >= 0, after < 64, row & (1 << UInt64(after)) != 0 else { return false }
        return Unicode.Scalar(scalar).map { !$0.properties.isGraphemeExtend } ?? true
    }

    /// A code point's line-break class for the break-all table: ICU's, with `+` a letter
    /// (as Internet Explorer had it, and Blink keeps).
    private static func breakAllClass(_ scalar: UInt32) -> Int {
        scalar == 0x2B ? CTX_LB_ALPHABETIC : Int(ctx_line_break_class(scalar))
    }

    private static func classes(_ classes: Int...) -> UInt64 {
        classes.reduce(0) { $0 | 1 << UInt64($1) }
    }

    /// The break-all table's rows: the classes a break goes before, after each class.
    private static let wordClasses = classes(CTX_LB_AMBIGUOUS, CTX_LB_ALPHABETIC, CTX_LB_BREAK_AFTER, CTX_LB_HYPHEN,
                                             CTX_LB_NUMERIC, CTX_LB_HEBREW_LETTER)
    private static let beforeLetters = wordClasses | classes(CTX_LB_OPEN_PUNCTUATION, CTX_LB_PREFIX_NUMERIC,
                                                             CTX_LB_COMPLEX_CONTEXT)
    private static let afterClose = wordClasses | classes(CTX_LB_PREFIX_NUMERIC)
    private static let afterCloseParenthesis = afterClose | classes(CTX_LB_COMPLEX_CONTEXT)
    private static let afterPostfix = wordClasses | classes(CTX_LB_POSTFIX_NUMERIC, CTX_LB_PREFIX_NUMERIC)

    private static func breakAllRow(_ before: Int) -> UInt64 {
        switch before {
        case CTX_LB_AMBIGUOUS, CTX_LB_ALPHABETIC, CTX_LB_BREAK_AFTER, CTX_LB_NUMERIC, CTX_LB_COMPLEX_CONTEXT,
             CTX_LB_BREAK_SYMBOLS, CTX_LB_HEBREW_LETTER: beforeLetters
        case CTX_LB_CLOSE_PUNCTUATION: afterClose
        case CTX_LB_CLOSE_PARENTHESIS: afterCloseParenthesis
        case CTX_LB_EXCLAMATION, CTX_LB_POSTFIX_NUMERIC: afterPostfix
        case CTX_LB_INFIX_NUMERIC: wordClasses
        case CTX_LB_PREFIX_NUMERIC: classes(CTX_LB_POSTFIX_NUMERIC)
        case CTX_LB_HYPHEN: classes(CTX_LB_NUMERIC)
        default: 0
        }
    }

    // MARK: - The rules
    // Each gives its opinion about a break between `last` and `current` (UTF-16 code
    // units; `lastLast` precedes `last`, 0 at the start of the text), or nil for none.

    /// Spaces, tabs and newlines Blink treats as breakable space.
    @inline(__always)
    static func isBreakableSpace(_ unit: UInt16) -> Bool { unit == 0x20 || unit == 0x09 || unit == 0x0A }

    /// Blink breaks after every run of breakable spaces (whatever follows, even `!`
    /// or `)`, which ICU keeps with the word before) and never inside one.
    static func afterSpaceRun(_: UInt16, _ last: UInt16, _ current: UInt16) -> Bool? {
        if isBreakableSpace(current) { return false }
        if isBreakableSpace(last) { return true }
        return nil
    }

    /// No break next to a control character or a space that is not breakable space.
    static func controls(_: UInt16, _ last: UInt16, _ current: UInt16) -> Bool? {
        last < 0x21 || current < 0x21 ? false : nil
    }

    /// After a hyphen-minus, a digit starts a new line only when the hyphen joins two
    /// words or numbers (`2024-|03`, `ABCD-|1234`), not when it is a minus sign (`x -1`).
    /// Before any other non-ASCII character ICU decides.
    static func hyphenBeforeDigit(_ lastLast: UInt16, _ last: UInt16, _ current: UInt16) -> Bool? {
        guard last == 0x2D else { return nil }
        if current > 0x7F { return nil }
        guard isASCIIDigit(current) else { return nil }
        return isASCIIDigit(lastLast) || isASCIILetter(lastLast)
    }

    /// Between two printable ASCII characters Blink uses its own table (kept for
    /// compatibility with older browsers), not ICU: a break only before `(` `[` `{` `<`
    /// and after `-` and `?`, except before `! ) , . / : ; ? ] }` and after
    /// `$ ' ( / < @ [ ^ _` `` ` `` `{`, letters and digits. Notably no break after
    /// `/`, `!`, `%` or `}` as ICU has.
    static func asciiPairs(_: UInt16, _ last: UInt16, _ current: UInt16) -> Bool? {
        guard (0x21...0x7F).contains(last), (0x21...0x7F).contains(current) else { return nil }
        if isASCIIDigit(last) || isASCIILetter(last) || last == 0x7F { return false }
        switch last {
        case 0x24, 0x27, 0x28, 0x2F, 0x3C, 0x40, 0x5B, 0x5E, 0x5F, 0x60, 0x7B: return false   // $ ' ( / < @ [ ^ _ ` {
        default: break
        }
        switch current {
        case 0x21, 0x29, 0x2C, 0x2E, 0x2F, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D: return false         // ! ) , . / : ; ? ] }
        default: break
        }
        if last == 0x2D { return current != 0x24 }                             // - but not -$
        if last == 0x3F { return current != 0x22 && current != 0x27 }          // ? but not ?" ?'
        return current == 0x28 || current == 0x5B || current == 0x7B || current == 0x3C   // ( [ { <
    }

    @inline(__always) private static func isASCIIDigit(_ unit: UInt16) -> Bool { (0x30...0x39).contains(unit) }
    @inline(__always) private static func isASCIILetter(_ unit: UInt16) -> Bool {
        (0x41...0x5A).contains(unit) || (0x61...0x7A).contains(unit)
    }

    /// UAX #14 classes AL and HL: the letters LB20a keeps a hyphen with.
    private static func isLetterForLB20a(_ scalar: UInt32) -> Bool {
        let lineBreak = ctx_line_break_class(scalar)
        return lineBreak == CTX_LB_ALPHABETIC || lineBreak == CTX_LB_HEBREW_LETTER
    }

    /// Unicode 15.1's LB19a, which Chromium's ICU has and ICU 72 lacks: a quotation
    /// mark between East Asian characters does not hold them together. A line may
    /// start with an opening quote (`他问道。|“这是`) and end after a closing one
    /// (`书，”|她回答`) when the characters on both sides of the quote are East Asian.
    @inline(__always)
    static func eastAsianQuotes(at offset: Int, in text: UnsafeBufferPointer<UInt16>) -> Bool {
        // Asked at every offset ICU does not break at: most are settled by their two code
        // units, inline, with no decoding and no property lookup.
        (mayBeQuotationMark(text[offset]) || mayBeQuotationMark(text[offset - 1]))
            && quotationMarkBreak(at: offset, in: text)
    }

    private static func quotationMarkBreak(at offset: Int, in text: UnsafeBufferPointer<UInt16>) -> Bool {
        let before = scalar(endingAt: offset, in: text)
        let after = Scalars.decode(text, at: offset).scalar
        if isQuote(after, .initial), let before, isEastAsian(before),
           !noBreakAfter.contains(ctx_line_break_class(before)) {
            let afterQuote = offset + (after > 0xFFFF ? 2 : 1)
            return afterQuote < text.count && isEastAsian(Scalars.decode(text, at: afterQuote).scalar)
        }
        if let before, isQuote(before, .final), isEastAsian(after),
           !noBreakBefore.contains(ctx_line_break_class(after)),
           let beforeQuote = scalar(endingAt: offset - (before > 0xFFFF ? 2 : 1), in: text) {
            return isEastAsian(beforeQuote)
        }
        return false
    }

    /// Classes no break may follow, whatever comes next (UAX #14 LB7–LB14).
    private static let noBreakAfter: Set<Int32> = [
        Int32(CTX_LB_OPEN_PUNCTUATION), Int32(CTX_LB_GLUE), Int32(CTX_LB_WORD_JOINER), Int32(CTX_LB_ZWJ),
        Int32(CTX_LB_COMBINING_MARK), Int32(CTX_LB_QUOTATION),
    ]
    /// Classes no break may precede (UAX #14 LB7–LB13, LB21).
    private static let noBreakBefore: Set<Int32> = [
        Int32(CTX_LB_CLOSE_PUNCTUATION), Int32(CTX_LB_CLOSE_PARENTHESIS), Int32(CTX_LB_EXCLAMATION),
        Int32(CTX_LB_INFIX_NUMERIC), Int32(CTX_LB_BREAK_SYMBOLS), Int32(CTX_LB_NONSTARTER),
        Int32(CTX_LB_BREAK_AFTER), Int32(CTX_LB_HYPHEN), Int32(CTX_LB_GLUE), Int32(CTX_LB_WORD_JOINER),
        Int32(CTX_LB_ZWSPACE), Int32(CTX_LB_COMBINING_MARK), Int32(CTX_LB_ZWJ), Int32(CTX_LB_QUOTATION),
    ]

    private enum QuoteKind { case initial, final }

    /// Whether `unit` may be an initial or final quotation mark (general category Pi or
    /// Pf). Every such mark is in the BMP, in three short stretches; a surrogate is none.
    @inline(__always) static func mayBeQuotationMark(_ unit: UInt16) -> Bool {
        if unit < 0x2018 { return unit == 0xAB || unit == 0xBB }
        return unit <= 0x203A ? (unit <= 0x201F || unit >= 0x2039) : (0x2E02...0x2E21).contains(unit)
    }

    private static func isQuote(_ scalar: UInt32, _ kind: QuoteKind) -> Bool {
        let category = hb_unicode_general_category(hb_unicode_funcs_get_default(), scalar)
        guard category == (kind == .initial ? HB_UNICODE_GENERAL_CATEGORY_INITIAL_PUNCTUATION
                                            : HB_UNICODE_GENERAL_CATEGORY_FINAL_PUNCTUATION) else { return false }
        return ctx_line_break_class(scalar) == CTX_LB_QUOTATION
    }

    private static func isEastAsian(_ scalar: UInt32) -> Bool { ctx_is_east_asian(scalar) != 0 }

    /// The scalar whose code units end just before `offset`, or nil at the start.
    private static func scalar(endingAt offset: Int, in text: UnsafeBufferPointer<UInt16>) -> UInt32? {
        guard offset > 0 else { return nil }
        if offset >= 2, text[offset - 1] & 0xFC00 == 0xDC00, text[offset - 2] & 0xFC00 == 0xD800 {
            return Scalars.decode(text, at: offset - 2).scalar
        }
        return Scalars.decode(text, at: offset - 1).scalar
    }
}
