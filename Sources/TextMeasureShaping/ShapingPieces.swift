/// Where a font run is cut before it is handed to HarfBuzz: only inside very long
/// stretches of code points that join the one before them (combining marks, joiners).
///
/// HarfBuzz before 7.0 (Debian 12 ships 6.0) looks back over every earlier mark to
/// find each mark's base, so a base with n marks costs time in n² (CVE-2023-25193):
/// `"a"` with 100,000 U+0301 took 31 s, a million about 50 minutes, and a batch line
/// like that stalls every result after it. Cutting such a stretch every
/// `maximumJoiningUnits` code units bounds each call, whatever HarfBuzz is installed.
///
/// The width rule: the first piece holds the base and its first marks; each later
/// piece is shaped alone (with the text around it as HarfBuzz's context, and no
/// dotted circle inserted), and its glyphs count toward the base's cluster. Marks
/// take no advance in the fonts' GDEF (or in HarfBuzz's fallback), so the width is
/// the same as shaping the cluster whole; only marks past the first piece are not
/// attached to the base when drawn. No text anyone reads has 128 marks in a row, so
/// ordinary text is never cut.
package enum ShapingPieces {
    /// The most consecutive joining code units handed to HarfBuzz in one call. At 128,
    /// each call's lookback costs under 0.1 ms, and a million marks shape in well under
    /// a second; a cluster needing more marks than this is not text anyone writes.
    package static let maximumJoiningUnits = 128

    /// The UTF-16 offsets inside `start..<end` where the run is cut: before a joining
    /// code point once `maximumJoiningUnits` joining units have passed since the last
    /// code point that starts a cluster (or the last cut). Empty, and allocating
    /// nothing, for every run shorter than the limit and for ordinary text.
    package static func cuts(in text: UnsafeBufferPointer<UInt16>, from start: Int, to end: Int,
                     maximumJoiningUnits: Int = maximumJoiningUnits) -> [Int] {
        // A run no longer than the limit cannot hold a longer stretch: no scan.
        guard end - start > maximumJoiningUnits else { return [] }
        var cuts: [Int] = []
        var joining = 0
        var index = start
        while index < end {
            // Nothing below U+0300 (the first combining mark) joins what precedes it.
            if text[index] < 0x300 {
                joining = 0
                index += 1
                continue
            }
            let (scalar, length) = Scalars.decode(text, at: index)
            if Scalars.joinsPrevious(scalar) {
                if joining + length > maximumJoiningUnits, joining > 0 {
                    cuts.append(index)
                    joining = 0
                }
                joining += length
            } else {
                joining = 0
            }
            index += length
        }
        return cuts
    }
}
