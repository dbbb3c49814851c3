import CHarfBuzz

extension TextStyle {
    /// Whether HarfBuzz reads `feature` as a feature setting (`"-liga"`, `"+tnum"`,
    /// `"ss01=1"`, `"kern[3:5]=0"`). `TextStyle` validation rejects the rest, which
    /// shaping would otherwise drop. The length is passed, so a NUL inside the string
    /// cannot end it early (`"liga\0junk"` is not `"liga"`).
    package static func parses(_ feature: String) -> Bool {
        var parsed = hb_feature_t()
        let utf8 = Array(feature.utf8)
        guard !utf8.isEmpty, !utf8.contains(0), utf8.count < Int(Int32.max) else { return false }
        return utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { hb_feature_from_string($0.baseAddress, Int32($0.count), &parsed) != 0 }
        }
    }
}
