extension String {
    /// `range`'s UTF-16 offsets, checked to lie within the string on scalar boundaries:
    /// an edit's range as the prepared arrays count it.
    package func utf16Offsets(of range: Range<Index>) throws(TextMeasureError) -> Range<Int> {
        let units = utf16
        guard range.lowerBound >= units.startIndex, range.upperBound <= units.endIndex,
              range.lowerBound.samePosition(in: unicodeScalars) != nil,
              range.upperBound.samePosition(in: unicodeScalars) != nil else {
            throw .invalidEditRange(utf16Offsets: -1 ..< -1)
        }
        let lower = units.distance(from: units.startIndex, to: range.lowerBound)
        return lower..<(lower + units.distance(from: range.lowerBound, to: range.upperBound))
    }
}
