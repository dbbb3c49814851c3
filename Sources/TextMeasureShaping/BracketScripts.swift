import CHarfBuzz
import TextMeasureSegmentation

/// The script each cluster's run has in Blink's script itemization
/// (`ScriptRunIterator`), where it differs from "a neutral takes the script before
/// it": a closing bracket takes the script of the bracket it closes, and the run goes
/// on in that script. In "دولار (officially) للتذكرة" the ")" and what follows it are
/// Arabic, like the "(", not Latin like the word before them; letter spacing, which
/// Chromium leaves out of cursive runs, follows this.
///
/// Fed "ل", "(", "a", ")" in turn (`resolve`), it answers Arabic, Arabic, Latin,
/// Arabic.
package struct BracketScripts {
    /// The script neutrals take: the last one of their own, or a closing bracket's.
    private var current = HB_SCRIPT_INVALID
    /// The first script of its own: what brackets opened before it resolve to.
    private var first = HB_SCRIPT_INVALID
    /// Open brackets not closed yet, innermost last: each one's code point and script.
    private var open: [(bracket: UInt32, script: hb_script_t)] = []
    /// Blink keeps this many at most (`kMaxBrackets`), forgetting the outermost.
    private static let depth = 32

    package init() {}

    /// The script of a cluster starting with `scalar`, whose own script is `own`
    /// (`HB_SCRIPT_INVALID` while every cluster so far was neutral).
    package mutating func resolve(_ scalar: UInt32, own: hb_script_t) -> hb_script_t {
        guard own.isNeutral else {
            if first == HB_SCRIPT_INVALID { first = own }
            current = own
            return own
        }
        guard let bracket = Scalars.pairedBracket(scalar) else { return current }
        if bracket.opens {
            if open.count == Self.depth { open.removeFirst() }
            open.append((scalar, current))
            return current
        }
        guard let match = open.lastIndex(where: { $0.bracket == bracket.pair }) else { return current }
        var script = open[match].script == HB_SCRIPT_INVALID ? first : open[match].script
        open.removeSubrange(match...)
        // Han, Hiragana and Katakana are one run to Blink: a closing bracket among
        // them keeps the run's script.
        if Self.isHan(script), Self.isHan(current) { script = current }
        if script != HB_SCRIPT_INVALID { current = script }
        return current
    }

    private static func isHan(_ script: hb_script_t) -> Bool {
        script == HB_SCRIPT_HAN || script == HB_SCRIPT_HIRAGANA || script == HB_SCRIPT_KATAKANA
            || script == HB_SCRIPT_BOPOMOFO
    }
}
