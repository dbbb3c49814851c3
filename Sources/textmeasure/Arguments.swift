import TextMeasure

/// A minimal command-line reader: options (`--name value`, `--flag`) and positional
/// arguments, in any order; `--` ends options.
struct Arguments {
    private var tokens: [String]

    init(_ tokens: some Sequence<String>) { self.tokens = Array(tokens) }

    /// Removes and returns every value of a repeatable option.
    mutating func values(_ name: String) throws(CLIError) -> [String] {
        var found: [String] = []
        var i = 0
        while i < tokens.count, tokens[i] != "--" {
            if tokens[i] == name {
                guard i + 1 < tokens.count else { throw .usage("\(name) needs a value") }
                found.append(tokens[i + 1])
                tokens.removeSubrange(i...(i + 1))
            } else if tokens[i].hasPrefix(name + "=") {
                found.append(String(tokens[i].dropFirst(name.count + 1)))
                tokens.remove(at: i)
            } else {
                i += 1
            }
        }
        return found
    }

    /// Removes and returns the last value of an option, if given.
    mutating func value(_ name: String) throws(CLIError) -> String? { try values(name).last }

    /// Removes and returns an option's value parsed as a decimal number (`100`, `-2.5`,
    /// `1e3`). Hex (`0x64`, which `Double` reads as 100), `nan` and `inf` are usage errors.
    mutating func number(_ name: String) throws(CLIError) -> Double? {
        guard let text = try value(name) else { return nil }
        guard let number = DecimalNumber.parse(text) else {
            throw .usage("\(name) needs a finite decimal number such as 100 or 12.5, got '\(text)'")
        }
        return number
    }

    /// Removes and returns an option's value parsed as a whole number in `range`.
    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = try value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// Removes a flag and tells whether it was given.
    mutating func flag(_ name: String) -> Bool {
        guard let index = tokens.prefix(while: { $0 != "--" }).firstIndex(of: name) else { return false }
        tokens.remove(at: index)
        return true
    }

    /// The positional arguments left once every option has been taken; an
    /// unknown option is a usage error.
    mutating func positionals() throws(CLIError) -> [String] {
        var result: [String] = []
        var optionsEnded = false
        for token in tokens {
            if !optionsEnded, token == "--" { optionsEnded = true; continue }
            if !optionsEnded, token.hasPrefix("--") || (token.hasPrefix("-") && token.count > 1 && Double(token) == nil) {
                throw .usage("unknown option \(token)")
            }
            result.append(token)
        }
        tokens = []
        return result
    }
}
