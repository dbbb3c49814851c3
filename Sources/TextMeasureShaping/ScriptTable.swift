import CHarfBuzz

/// `hb_unicode_script` for every BMP code point, computed once per process (about
/// half a millisecond, 64 KB): the script of each cluster is then one load.
/// Supplementary code points still ask HarfBuzz.
@usableFromInline
package struct ScriptTable: Sendable {
    package static let bmp = ScriptTable()

    /// Per BMP code point, an index into `values`.
    @usableFromInline let indices: [UInt8]
    /// The distinct scripts (Unicode has fewer than 256).
    @usableFromInline let values: [UInt32]

    private init() {
        let unicode = hb_unicode_funcs_get_default()
        var values: [UInt32] = []
        var positions: [UInt32: UInt8] = [:]
        var indices = [UInt8](repeating: 0, count: 0x10000)
        // Scripts come in long blocks: a code point with its predecessor's script skips
        // the dictionary, which was two thirds of what building the table cost a process.
        var last: (script: UInt32, position: UInt8)?
        for scalar in 0..<UInt32(0x10000) {
            let script = hb_unicode_script(unicode, scalar).rawValue
            if let last, last.script == script {
                indices[Int(scalar)] = last.position
            } else if let position = positions[script] {
                indices[Int(scalar)] = position
                last = (script, position)
            } else {
                let position = UInt8(values.count)
                positions[script] = position
                indices[Int(scalar)] = position
                values.append(script)
                last = (script, position)
            }
        }
        self.indices = indices
        self.values = values
    }

    /// A borrowed view for a hot loop.
    struct Scripts {
        fileprivate let indices: UnsafeBufferPointer<UInt8>
        fileprivate let values: UnsafeBufferPointer<UInt32>
        fileprivate let unicode: OpaquePointer?

        subscript(unit: UInt16) -> hb_script_t { hb_script_t(rawValue: values[Int(indices[Int(unit)])]) }

        subscript(scalar: UInt32) -> hb_script_t {
            scalar < 0x10000 ? self[UInt16(scalar)] : hb_unicode_script(unicode, scalar)
        }
    }

    func withScripts<R>(_ body: (Scripts) -> R) -> R {
        indices.withUnsafeBufferPointer { indices in
            values.withUnsafeBufferPointer { values in
                body(Scripts(indices: indices, values: values, unicode: hb_unicode_funcs_get_default()))
            }
        }
    }

    /// The script of `scalar`. Inlinable: preparation asks it for every segment it looks up.
    @inlinable
    package func script(of scalar: UInt32) -> hb_script_t {
        scalar < 0x10000 ? hb_script_t(rawValue: values[Int(indices[Int(scalar)])])
                         : hb_unicode_script(hb_unicode_funcs_get_default(), scalar)
    }
}

extension hb_script_t {
    /// Common, Inherited or Unknown: no script of its own (spaces, punctuation, digits,
    /// marks), so the text takes the script around it.
    @inlinable
    package var isNeutral: Bool { self == HB_SCRIPT_COMMON || self == HB_SCRIPT_INHERITED || self == HB_SCRIPT_UNKNOWN }
}
