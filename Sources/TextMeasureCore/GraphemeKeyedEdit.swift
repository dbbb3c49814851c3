extension Array {
    /// These records, sorted by the grapheme each belongs to (`grapheme`), with those of
    /// the graphemes `replaced` taken out, `inserted`'s (numbered from the first replaced
    /// grapheme) put in their place, and the ones after moved by the change in length
    /// (`insertedCount` graphemes in place of `replaced.count`): what an edit of the text
    /// does to what preparing keeps per grapheme (ligature spans, line-edge adjustments).
    package func replacing(graphemes replaced: Range<Int32>, with inserted: [Element], insertedCount: Int32,
                           keyedBy grapheme: WritableKeyPath<Element, Int32>) -> [Element] {
        let before = partitioningIndex { $0[keyPath: grapheme] >= replaced.lowerBound }
        let after = partitioningIndex { $0[keyPath: grapheme] >= replaced.upperBound }
        let shift = replaced.lowerBound + insertedCount - replaced.upperBound
        var result = [Element]()
        result.reserveCapacity(before + inserted.count + count - after)
        result += self[..<before]
        for var record in inserted {
            record[keyPath: grapheme] += replaced.lowerBound
            result.append(record)
        }
        for var record in self[after...] {
            record[keyPath: grapheme] += shift
            result.append(record)
        }
        return result
    }
}
