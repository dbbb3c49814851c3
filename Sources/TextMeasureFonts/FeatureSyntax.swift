import CHarfBuzz

extension TextStyle {
    /// Whether HarfBuzz reads `feature` as a feature setting (`"-liga"`, `"+tnum"`,
    /// `"ss01=1"`, `"kern[3:5]=0"`). `TextStyle` validation rejects the rest, which
    /// shaping would otherwise drop. The length is passed, so a NUL inside the string
    /// cannot end it early (`"liga\0junk"` is not `"liga"`).
    package static func parses(_ feature: String) -> Bool {
        var parsed = hb_feature_t()
        // Read in place (copied into an array, each validation allocated); `withUTF8`
        // is mutating only to make a bridged string contiguous.
        var feature = feature
        return feature.withUTF8 { bytes in
            guard !bytes.isEmpty, !bytes.contains(0), bytes.count < Int(Int32.max) else { return false }
            return bytes.withMemoryRebound(to: CChar.self) { hb_feature_from_string($0.baseAddress, Int32($0.count), &parsed) != 0 }
        }
    }
}
