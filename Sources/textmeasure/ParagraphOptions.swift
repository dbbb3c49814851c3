import TextMeasure

/// The paragraph options (CSS `text-wrap`, `word-break`, `line-break`, `overflow-wrap`,
/// `white-space`, `hyphens`, `lang`, `font-optical-sizing`, `text-spacing-trim`) as command-line
/// flags, named as CSS names them.
enum ParagraphOptions {
    static let help = """
          --text-wrap V        wrap (default), balance or pretty
          --word-break V       normal (default), break-all or keep-all
          --line-break V       auto (default), loose, normal, strict or anywhere
          --overflow-wrap V    break-word (default), anywhere or normal
          --white-space V      pre-wrap (default) or normal
          --hyphens V          manual (default), none or auto
          --lang TAG           the text's language, BCP 47 (en-US, de, fr): hyphenation patterns
          --optical-sizing V   auto (default: a variable font's opsz is the size in px) or none
          --text-spacing-trim V  normal (default), space-all, space-first or trim-start
        """

    /// Reads the flags given into `style`.
    static func parse(_ arguments: inout Arguments, into style: inout TextStyle) throws(CLIError) {
        if let value = try choice("--text-wrap", TextWrap.self, &arguments) { style.textWrap = value }
        if let value = try choice("--word-break", WordBreak.self, &arguments) { style.wordBreak = value }
        if let value = try choice("--line-break", LineBreak.self, &arguments) { style.lineBreak = value }
        if let value = try choice("--overflow-wrap", OverflowWrap.self, &arguments) { style.overflowWrap = value }
        if let value = try choice("--white-space", WhiteSpace.self, &arguments) { style.whiteSpace = value }
        if let value = try choice("--hyphens", Hyphens.self, &arguments) { style.hyphens = value }
        if let language = try arguments.value("--lang") { style.language = language }
        if let value = try choice("--optical-sizing", OpticalSizing.self, &arguments) { style.opticalSizing = value }
        if let value = try choice("--text-spacing-trim", TextSpacingTrim.self, &arguments) { style.textSpacingTrim = value }
    }

    private static func choice<Value: RawRepresentable & CaseIterable>(
        _ flag: String, _ type: Value.Type, _ arguments: inout Arguments
    ) throws(CLIError) -> Value? where Value.RawValue == String {
        guard let text = try arguments.value(flag) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw .usage("\(flag) must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
