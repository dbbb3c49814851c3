import TextMeasure

/// `textmeasure measure`: the size of a text at a proposed width, and its lines.
enum MeasureCommand {
    static let help = """
        usage: textmeasure measure --width W [options] [TEXT | -]

        Measures TEXT (or standard input, with - or no TEXT) wrapped at a proposed
        width W, as a self-sizing text view would: the width taken, the height of
        the wrapped lines, and the lines themselves.

        options:
          --width W            the proposed width in pixels (required; finite and > 0)
          --json               print JSON: size, intrinsicContentSize, idealWidth, lines
        \(MeasureOptions.help)

        JSON offsets are UTF-16 code units. Standard input must be UTF-8.
        Exit status: 0 success, 1 bad input (text, font, width), 2 usage error.
        """

    struct Output: Encodable {
        struct Line: Encodable {
            var start: Int
            var end: Int
            var width: Double
            var text: String
        }
        var size: Size?
        var intrinsicContentSize: Size
        var idealWidth: Double
        var lines: [Line]
        /// Present (true) when a line limit or truncation hides some of the text.
        var truncated: Bool?
    }

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        guard let width = try arguments.number("--width") else { throw .usage("measure needs --width W") }
        let json = arguments.flag("--json")
        let options = try MeasureOptions.parse(&arguments)
        let text = try TextInput.read(try arguments.positionals())
        let measurer = try options.measurer(for: text)

        guard let size = measurer.sizeThatFits(ProposedSize(width: width)) else {
            throw .input("width \(width) is not usable: a width must be finite and greater than 0 (nothing to wrap against)")
        }
        let layout: TextLayout
        do { layout = try measurer.layout(width: width) } catch { throw .input(error.description) }
        let output = Output(size: size,
                            intrinsicContentSize: measurer.intrinsicContentSize(currentWidth: width),
                            idealWidth: measurer.idealWidth,
                            lines: layout.lines.map {
                                Output.Line(start: $0.utf16Range.lowerBound, end: $0.utf16Range.upperBound,
                                            width: $0.width, text: $0.displayText)
                            },
                            truncated: layout.isTruncated ? true : nil)
        if json {
            print(JSONOutput.line(output))
        } else {
            printHuman(output, width: width)
        }
    }

    private static func printHuman(_ output: Output, width: Double) {
        guard let size = output.size else { return }
        print("size: \(format(size.width)) × \(format(size.height))   lines: \(output.lines.count)   idealWidth: \(format(output.idealWidth))")
        let rows = output.lines.map { line in
            line.text.replacingNewlines()
        }
        let boxWidth = max(rows.map(\.count).max() ?? 0, 1)
        print("┌" + String(repeating: "─", count: boxWidth) + "┐")
        for (row, line) in zip(rows, output.lines) {
            print("│" + row + String(repeating: " ", count: boxWidth - row.count) + "│ \(format(line.width))")
        }
        print("└" + String(repeating: "─", count: boxWidth) + "┘")
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension String {
    /// The line's text for a terminal: a newline shown as ⏎, other controls as their picture.
    func replacingNewlines() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.value {
            case 0x0A, 0x0D, 0x2028, 0x2029, 0x85: "⏎"
            case 0x09: "→"
            case 0..<0x20: Unicode.Scalar(0x2400 + scalar.value)!
            default: scalar
            }
        }))
    }
}
