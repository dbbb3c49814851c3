import CHarfBuzz

/// CSS `font-optical-sizing`: whether a variable font's `opsz` axis follows the font
/// size (`TextStyle.opticalSizing`).
public enum OpticalSizing: String, Sendable, Hashable, Codable, CaseIterable {
    /// `opsz` at the font size in px, clamped to the axis, unless the font names it: the default.
    case auto
    /// `opsz` at the font's default (or at what the font names).
    case none
}

/// Setting a variable font's axes (`Font(contentsOfFile:faceIndex:variations:)`).
package enum FontVariation {
    /// A variable font's `opsz` axis, when its loading left it unnamed: what
    /// `Font.instance(opticalSize:)` clamps a font size to.
    package struct OpticalSizeAxis: Sendable {
        package var range: ClosedRange<Double>
        package var defaultValue: Double
    }

    /// The axes Chromium sets on a variable font used with no font-variation-settings:
    /// `wght` from font-weight (400, normal) and `wdth` from font-stretch (100), each
    /// clamped to the axis's range, for each of these axes the face has and `named`
    /// does not set; values at the axis's default are left out, so a font at its
    /// default instance stays one (HarfBuzz then reads no variation data). Also the
    /// face's `opsz` axis when `named` does not set it (it follows the size, per style).
    static func unnamedDefaults(face: OpaquePointer?, named: [String: Double])
        -> (values: [String: Double], opticalSize: OpticalSizeAxis?) {
        var values: [String: Double] = [:]
        for (tag, css) in [("wght", 400.0), ("wdth", 100.0)] where named[tag] == nil {
            guard let axis = axis(tag, of: face) else { continue }
            let value = min(max(css, Double(axis.min_value)), Double(axis.max_value))
            if value != Double(axis.default_value) { values[tag] = value }
        }
        var opticalSize: OpticalSizeAxis?
        if named["opsz"] == nil, let axis = axis("opsz", of: face), axis.min_value <= axis.max_value {
            opticalSize = OpticalSizeAxis(range: Double(axis.min_value)...Double(axis.max_value),
                                          defaultValue: Double(axis.default_value))
        }
        return (values, opticalSize)
    }

    private static func axis(_ tag: String, of face: OpaquePointer?) -> hb_ot_var_axis_info_t? {
        var axis = hb_ot_var_axis_info_t()
        guard hb_ot_var_find_axis_info(face, hb_tag_from_string(tag, 4), &axis) != 0 else { return nil }
        return axis
    }

    /// Whether `tag` can name an OpenType axis: 1 to 4 printable ASCII characters
    /// (shorter tags are padded with spaces, as OpenType does).
    package static func isValidTag(_ tag: String) -> Bool {
        !tag.isEmpty && tag.utf8.count <= 4 && tag.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Sets `variations` on `font` (not yet immutable) after checking each against the
    /// face's axes, and returns the vertical metrics at that instance (with MVAR's
    /// deltas), so that line heights and advances both come from the instance HarfBuzz draws.
    static func apply(_ variations: [String: Double], to font: OpaquePointer, face: OpaquePointer?,
                      metrics: FontMetrics) throws(FontError) -> FontMetrics {
        var settings: [hb_variation_t] = []
        for (tag, value) in variations.sorted(by: { $0.key < $1.key }) {
            guard isValidTag(tag) else {
                throw .invalidVariation(tag: tag, reason: "an axis tag is 1 to 4 printable ASCII characters")
            }
            let hbTag = hb_tag_from_string(tag, Int32(tag.utf8.count))
            var axis = hb_ot_var_axis_info_t()
            guard hb_ot_var_find_axis_info(face, hbTag, &axis) != 0 else {
                throw .invalidVariation(tag: tag, reason: "the font has no such axis\(axisList(face))")
            }
            guard value.isFinite, Double(axis.min_value) <= value, value <= Double(axis.max_value) else {
                throw .invalidVariation(tag: tag, reason: "\(value) is outside the axis's range \(axis.min_value)...\(axis.max_value)")
            }
            settings.append(hb_variation_t(tag: hbTag, value: Float(value)))
        }
        hb_font_set_variations(font, settings, UInt32(settings.count))
        var ascender: hb_position_t = 0, descender: hb_position_t = 0, lineGap: hb_position_t = 0
        guard hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER, &ascender) != 0,
              hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER, &descender) != 0 else {
            return metrics   // no hhea/OS/2 values HarfBuzz can read: keep FreeType's
        }
        if hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP, &lineGap) == 0 { lineGap = 0 }
        // The font's scale is its units per em, so these positions are in font units.
        let ascent = Int(ascender), descent = -Int(descender)
        return FontMetrics(unitsPerEm: metrics.unitsPerEm, ascent: ascent, descent: max(descent, -ascent),
                           lineGap: max(0, Int(lineGap)))
    }

    /// ": it has wght, wdth" or ": it has none", for the message about a missing axis.
    private static func axisList(_ face: OpaquePointer?) -> String {
        var count: UInt32 = 16
        var axes = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
        let total = hb_ot_var_get_axis_infos(face, 0, &count, &axes)
        guard total > 0 else { return ": it is not a variable font" }
        let names = axes.prefix(Int(count)).map { axis -> String in
            var buffer = [CChar](repeating: 0, count: 5)
            hb_tag_to_string(axis.tag, &buffer)
            return String(decoding: buffer.prefix(4).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return ": it has " + names.joined(separator: ", ")
    }
}
