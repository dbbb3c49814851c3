import CHarfBuzz
import Testing
@testable import TextMeasureShaping

/// `BracketScripts` against Blink's `ScriptRunIterator` rules, one at a time.
@Suite struct BracketScriptsTests {
    /// Each scalar with its own script (neutrals `HB_SCRIPT_COMMON`), resolved in turn.
    func resolve(_ items: [(UInt32, hb_script_t)]) -> [hb_script_t] {
        var scripts = BracketScripts()
        return items.map { scripts.resolve($0.0, own: $0.1) }
    }

    let arabic = HB_SCRIPT_ARABIC, latin = HB_SCRIPT_LATIN, common = HB_SCRIPT_COMMON

    @Test func aClosingBracketTakesTheScriptOfTheOneItCloses() {
        // ل ( a ) .  — the ")" and the "." after it are Arabic.
        #expect(resolve([(0x644, arabic), (0x28, common), (0x61, latin), (0x29, common), (0x2E, common)])
            == [arabic, arabic, latin, arabic, arabic])
    }

    @Test func neutralsWithoutBracketsTakeTheScriptBefore() {
        #expect(resolve([(0x644, arabic), (0x20, common), (0x61, latin), (0x2E, common)])
            == [arabic, arabic, latin, latin])
    }

    /// Only the bracket's pair closes it; an unmatched closing bracket is a neutral.
    @Test func onlyTheMatchingBracketCloses() {
        #expect(resolve([(0x644, arabic), (0x5B, common), (0x61, latin), (0x29, common), (0x5D, common)])
            == [arabic, arabic, latin, latin, arabic])
    }

    /// Closing an outer bracket forgets the inner ones still open.
    @Test func closingAnOuterBracketClosesTheInnerOnes() {
        #expect(resolve([(0x644, arabic), (0x28, common), (0x61, latin), (0x5B, common), (0x62, latin),
                         (0x29, common), (0x5D, common)])
            == [arabic, arabic, latin, latin, latin, arabic, arabic])
    }

    /// A bracket opened before any script resolves to the first one.
    @Test func aLeadingBracketTakesTheFirstScript() {
        #expect(resolve([(0x28, common), (0x644, arabic), (0x61, latin), (0x29, common)])
            == [HB_SCRIPT_INVALID, arabic, latin, arabic])
    }

    /// Beyond 32 open brackets the outermost are forgotten, as in Blink.
    @Test func atMost32BracketsAreKept() {
        var items: [(UInt32, hb_script_t)] = [(0x644, arabic), (0x28, common), (0x61, latin)]
        items += Array(repeating: (0x5B, common), count: 32)
        items.append((0x29, common))
        #expect(resolve(items).last == latin)
        items.removeLast(2)
        items.append((0x29, common))
        #expect(resolve(items).last == arabic)
    }
}
