import CHarfBuzz

/// A maximal stretch of text drawn with one font, in one script: the unit HarfBuzz shapes.
struct FontRun: Equatable {
    var start: Int          // UTF-16 offset
    var end: Int
    var fontIndex: Int
    var script: hb_script_t

    /// Whether the run's script is written right to left.
    var isRightToLeft: Bool { hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL }
}

/// Font itemization: which font draws each grapheme cluster, and the runs that follow.
///
/// Each cluster takes the first font in the set that draws all of its code points
/// without .notdef (`Font.drawsWithoutNotdef`: the cmap, or what HarfBuzz draws
/// through decomposition and space fallback);
/// failing that, the first that covers all but joiners and variation selectors;
/// failing that, the first that covers its first code point; failing that, the
/// primary font (which draws .notdef). A variation selector counts as covered only
/// by a font with a glyph for the sequence (cmap format 14), as in Blink, so `☺️`
/// goes to a colour emoji font even when an earlier font has a plain `☺`.
/// Fonts are tried in list order for every
/// cluster, spaces and punctuation included, as browsers do.
struct FontItemizer {
    let fonts: [Font]

    /// The font index for the cluster `text[start..<end]`.
    func fontIndex(for text: UnsafeBufferPointer<UInt16>, start: Int, end: Int) -> Int {
        // Fast path: one BMP code unit the primary font covers (most Latin text).
        if end - start == 1, fonts[0].coverage.contains(UInt32(text[start])) { return 0 }
        var firstScalar: UInt32?
        var firstCovering: Int?
        var lenientMatch: Int?
        for (index, font) in fonts.enumerated() {
            var coversAll = true, coversNonIgnorable = true
            var previous: UInt32?
            var i = start
            while i < end {
                let (scalar, length) = Scalars.decode(text, at: i)
                if firstScalar == nil { firstScalar = scalar }
                let drawn = if let previous, Scalars.isVariationSelector(scalar) {
                    font.drawsVariation(of: previous, selector: scalar)
                } else {
                    font.coverage.contains(scalar) || font.drawsWithoutNotdef(scalar)
                }
                if !drawn {
                    coversAll = false
                    if !Scalars.isCoverageIgnorable(scalar) { coversNonIgnorable = false; break }
                }
                previous = scalar
                i += length
            }
            if coversAll { return index }
            if coversNonIgnorable, lenientMatch == nil { lenientMatch = index }
            if firstCovering == nil, let firstScalar, font.drawsWithoutNotdef(firstScalar) { firstCovering = index }
        }
        return lenientMatch ?? firstCovering ?? 0
    }

    /// Splits `text` into runs of one font and one script, and fills `fontForGrapheme`.
    ///
    /// `graphemes` are the cluster boundaries after 0. A run that grows past
    /// `maximumRunLength` code units is cut at the next line-break opportunity in
    /// `breaks` (where shaping context matters least), or anywhere between clusters
    /// once it is 16 times too long, so that HarfBuzz's buffer stays small however
    /// long the paragraph.
    func runs(in text: UnsafeBufferPointer<UInt16>, graphemes: [Int32], breaks: [BreakOpportunity],
              fontForGrapheme: inout [UInt8], maximumRunLength: Int = 4096) -> [FontRun] {
        let unicode = hb_unicode_funcs_get_default()
        var runs: [FontRun] = []
        fontForGrapheme.removeAll(keepingCapacity: true)
        fontForGrapheme.reserveCapacity(graphemes.count)
        var current: FontRun?
        var lastRealScript = HB_SCRIPT_INVALID
        var start = 0
        var nextBreak = 0
        for boundary in graphemes {
            let end = Int(boundary)
            let font = fontIndex(for: text, start: start, end: end)
            fontForGrapheme.append(UInt8(font))
            // Script of the cluster: its first code point's, with Common and Inherited
            // taking the script before them (a space belongs to the word it follows).
            let (scalar, _) = Scalars.decode(text, at: start)
            var script = hb_unicode_script(unicode, scalar)
            if script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN {
                script = lastRealScript
            } else {
                lastRealScript = script
            }
            while nextBreak < breaks.count, breaks[nextBreak].utf16Offset < start { nextBreak += 1 }
            if var run = current {
                let sameScript = script == HB_SCRIPT_INVALID || run.script == HB_SCRIPT_INVALID || script == run.script
                let length = start - run.start
                let atBreak = nextBreak < breaks.count && breaks[nextBreak].utf16Offset == start
                let tooLong = length >= maximumRunLength * 16 || (length >= maximumRunLength && atBreak)
                if run.fontIndex == font, sameScript, !tooLong {
                    if run.script == HB_SCRIPT_INVALID { run.script = script }
                    run.end = end
                    current = run
                } else {
                    runs.append(run)
                    current = FontRun(start: start, end: end, fontIndex: font, script: script)
                }
            } else {
                current = FontRun(start: start, end: end, fontIndex: font, script: script)
            }
            start = end
        }
        if let current { runs.append(current) }
        return runs
    }
}
