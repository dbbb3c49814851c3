import TextMeasure

/// The options shared by the commands that lay text out.
struct MeasureOptions {
    var fonts: FontSet
    var style: TextStyle
    var container: TextContainer
    var minimumHeight: Double
    var maximumHeight: Double
    var widthSizing: TextMeasurer.WidthSizing

    static let help = """
          --font PATH          a font file; repeat for fallbacks, primary first; the embedded set
                               follows them (default: the embedded set alone). PATH#2 is face 2
                               of a collection, PATH#wght=700,wdth=90 sets a variable font's axes
          --no-embedded-fallback
                               no embedded fonts after --font: what the fonts lack is .notdef
          --size PX            font size in pixels (default 17)
          --line-height V      normal (default), a height in px (20px), or a multiple of the normal
                               height (1.2x, TextKit's lineHeightMultiple); a bare number is an error
          --inset T,L,B,R      text container inset (default 0,0,0,0)
          --padding P          line fragment padding at each end of a line (default 0)
          --min-height H       smallest height returned (default 0)
          --max-height H       largest height returned (default none)
          --hug                width = widest line (a label) instead of the proposed width (a text view)
          --rules R            line-break rules: browser (default) or uax14
          --label              empty text has no line and a final newline adds none
          --max-lines N        at most N lines (default 0: no limit)
          --line-break-mode M  word (default), char, clip, truncate-head, truncate-middle or truncate-tail
          --direction D        paragraph direction: auto (default: each paragraph's first strong character), ltr or rtl
          --align A            start (default), end, left, right or center, following the paragraph's direction
        """ + "\n" + ParagraphOptions.help

    /// Reads the options from `arguments`, loading any fonts named.
    static func parse(_ arguments: inout Arguments) throws(CLIError) -> MeasureOptions {
        var references: [FontReference] = []
        for spec in try arguments.values("--font") { references.append(try FontOption.reference(spec)) }
        // The embedded set follows the given fonts, as a browser falls back to the system's.
        let embeddedFallback = !arguments.flag("--no-embedded-fallback")
        let fonts: FontSet
        do {
            fonts = try FontCache().fontSet(references, embeddedFallback: embeddedFallback)
        } catch {
            throw .input(error.description)
        }

        var style = TextStyle()
        if let size = try arguments.number("--size") { style.fontSize = size }
        if let lineHeight = try arguments.value("--line-height") { style.lineHeight = try parseLineHeight(lineHeight) }
        if let rules = try parseRules(&arguments) { style.lineBreakRules = rules }
        if let direction = try arguments.value("--direction") {
            guard let parsed = WritingDirection(rawValue: direction) else {
                throw .usage("--direction must be one of \(WritingDirection.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            style.baseWritingDirection = parsed
        }
        if let alignment = try arguments.value("--align") {
            guard let parsed = TextAlignment(rawValue: alignment) else {
                throw .usage("--align must be one of \(TextAlignment.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            style.alignment = parsed
        }
        try ParagraphOptions.parse(&arguments, into: &style)

        var container = TextContainer()
        if let inset = try arguments.value("--inset") {
            guard let insets = parseInsets(inset) else { throw .usage("--inset needs four numbers: top,left,bottom,right") }
            container.textContainerInset = insets
        }
        if let padding = try arguments.number("--padding") { container.lineFragmentPadding = padding }
        if arguments.flag("--label") { container.emptyLines = .label }
        if let maxLines = try arguments.value("--max-lines") {
            guard let parsed = Int(maxLines), parsed >= 0 else {
                throw .usage("--max-lines needs a whole number ≥ 0, got '\(maxLines)'")
            }
            container.maximumNumberOfLines = parsed
        }
        if let mode = try arguments.value("--line-break-mode") {
            guard let parsed = LineBreakMode(rawValue: mode) else {
                throw .usage("--line-break-mode must be one of \(LineBreakMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            container.lineBreakMode = parsed
        }

        let minimumHeight = try arguments.number("--min-height") ?? 0
        guard minimumHeight.isFinite, minimumHeight >= 0 else {
            throw .input("--min-height must be finite and not negative, got \(minimumHeight.readable)")
        }
        let maximumHeight = try arguments.number("--max-height") ?? .infinity
        guard maximumHeight >= 0 else {   // false for NaN too; ∞ means no cap
            throw .input("--max-height must not be negative, got \(maximumHeight.readable)")
        }

        return MeasureOptions(fonts: fonts, style: style, container: container,
                              minimumHeight: minimumHeight, maximumHeight: maximumHeight,
                              widthSizing: arguments.flag("--hug") ? .hug : .fill)
    }

    /// `--rules browser|uax14`, if given.
    static func parseRules(_ arguments: inout Arguments) throws(CLIError) -> LineBreakRules? {
        guard let name = try arguments.value("--rules") else { return nil }
        guard let rules = LineBreakRules(rawValue: name) else { throw .usage("--rules must be browser or uax14") }
        return rules
    }

    /// "T,L,B,R" as insets, or nil unless it is exactly four numbers.
    private static func parseInsets(_ text: String) -> EdgeInsets? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, numbers.count == 4 else { return nil }
        return EdgeInsets(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
    }

    /// `normal`, `20px` or `1.2x` (`x1.2`, the older spelling, too). A bare number is a
    /// usage error: CSS reads `1.2` as 1.2 × the font size, TextKit's `lineHeightMultiple`
    /// as 1.2 × the normal height, and this tool once read it as 1.2 px.
    static func parseLineHeight(_ text: String) throws(CLIError) -> LineHeight {
        if let lineHeight = LineHeight(parsing: text) { return lineHeight }
        if text.hasPrefix("x"), let multiple = DecimalNumber.parse(text.dropFirst()) { return .multiple(multiple) }
        if DecimalNumber.parse(text) != nil {
            throw .usage("--line-height \(text) needs a unit: \(text)px for pixels or \(text)x for a multiple of the normal line height")
        }
        throw .usage("--line-height must be normal, a height in pixels (20px) or a multiple of the normal height (1.2x), got '\(text)'")
    }

    /// A measurer for `text` with these options.
    func measurer(for text: String) throws(CLIError) -> TextMeasurer {
        do {
            var measurer = try TextMeasurer(text: text, fonts: fonts, style: style, container: container)
            measurer.minimumHeight = minimumHeight
            measurer.maximumHeight = maximumHeight
            measurer.widthSizing = widthSizing
            return measurer
        } catch {
            throw .input(error.description)
        }
    }
}
