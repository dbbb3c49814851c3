import Testing
import TextMeasure
@testable import TextMeasureLineFitting

/// The truncating modes: where the ellipsis goes, that the line fits with it,
/// that it holds as much text as fits, and that no cluster is ever cut.
@Suite struct LineTruncatorTests {
    static let truncating: [LineBreakMode] = [.byTruncatingHead, .byTruncatingMiddle, .byTruncatingTail]
    static let ellipsis = String(LineBreakMode.ellipsis)

    @Test func theEllipsisIsShapedInTheFirstFontThatCoversIt() throws {
        let prepared = try PreparedText("text")
        #expect(prepared.ellipsis.fontIndex == 0)
        #expect(abs(Double(prepared.ellipsis.width) / Double(Units.widthPerPixel) - (try shapedWidth(Self.ellipsis))) <= 1.0 / Double(Units.widthPerPixel))
        #expect(prepared.ellipsis.width > 0)

        // A set whose primary font has no "…" (the emoji font) draws it with the next.
        let fonts = FontSet.default.fonts
        let emoji = try #require(fonts.firstIndex { $0.name.contains("Emoji") })
        let set = try FontSet([fonts[emoji], fonts[0]])
        let fallback = try PreparedText("text", fonts: set)
        #expect(fallback.ellipsis.fontIndex == 1)
        #expect(fallback.ellipsis.width == prepared.ellipsis.width)
    }

    /// The ellipsis line of every truncating mode, at every width and line limit:
    /// it shows "…", fits, and takes as many clusters as fit on each side of the
    /// ellipsis (one more would overflow), whitespace next to the ellipsis dropped.
    @Test(arguments: truncating)
    func truncatedLinesFitAndHoldAsMuchAsFits(mode: LineBreakMode) throws {
        for text in Samples.all {
            let prepared = try PreparedText(text)
            let boundaries = characterBoundaries(text)
            let allowedCharacters = Set(text).union([Character(Self.ellipsis)])
            for width in Samples.widths {
                for limit in [0, 1, 2, 3] {
                    let layout = try prepared.layout(width: width, lineBreakMode: mode, maximumNumberOfLines: limit)
                    #expect(layout.linesTileVisibleRange)
                    #expect(layout.isTruncated == (layout.lines.contains { $0.elidedRange != nil }
                                                   || layout.visibleUTF16Range.upperBound < prepared.utf16Count))
                    for line in layout.lines {
                        guard let elided = line.elidedUTF16Range else { continue }
                        let context = "\(mode) \(width) \(limit): \(line.displayText)"
                        #expect(line.displayText.contains(Self.ellipsis), "\(context)")
                        #expect(line.width <= width, "\(context)")
                        #expect(boundaries.contains(elided.lowerBound) && boundaries.contains(elided.upperBound), "\(context)")
                        // No cluster is broken: every character shown is one of the text's, or the ellipsis.
                        #expect(Set(line.displayText).isSubset(of: allowedCharacters), "\(context)")
                        try expectHoldsAsMuchAsFits(line, elided: elided, mode: mode, in: prepared, width: width)
                    }
                }
            }
        }
    }

    private func expectHoldsAsMuchAsFits(_ line: TextLayout.Line, elided: Range<Int>, mode: LineBreakMode,
                                         in prepared: PreparedText, width: Double) throws {
        let text = prepared.text
        let fixed = prepared.widthUnits(width)
        let ellipsisWidth = prepared.ellipsis.width
        let clusters = clusterRanges(prepared)
        let head = line.utf16Range.lowerBound..<elided.lowerBound
        let tail = elided.upperBound..<(line.utf16Range.lowerBound + line.text.trimmingTrailingHangingWhitespace().utf16.count)
        let shown = clusterWidth(prepared, head) + ellipsisWidth + clusterWidth(prepared, tail)
        #expect(shown == Int((line.width * Double(Units.widthPerPixel)).rounded()))
        #expect(shown <= fixed)
        // Within two pixels of the text shaped on its own (kerning across the cuts differs).
        let headText = text.utf16Slice(head), tailText = text.utf16Slice(tail)
        #expect(try shapedWidth(headText) + shapedWidth(Self.ellipsis) + shapedWidth(tailText) <= width + 2)

        // Whitespace next to the ellipsis is dropped with the elided text.
        #expect(headText.last.map { $0 != " " && $0 != "\t" } ?? true, "\(line.displayText)")
        #expect(tailText.first.map { $0 != " " && $0 != "\t" } ?? true, "\(line.displayText)")

        // The next visible cluster inside the elided text, on either side, would not fit.
        let elidedContent = clusters.filter { elided.contains($0.lowerBound) && !text.utf16Slice($0).allSatisfy(\.isWhitespace) }
        if mode != .byTruncatingHead, let next = elidedContent.first {
            let grown = clusterWidth(prepared, head.lowerBound..<next.upperBound) + ellipsisWidth + clusterWidth(prepared, tail)
            #expect(grown > fixed, "\(line.displayText): one more at the head would fit")
            let grownText = text.utf16Slice(head.lowerBound..<next.upperBound)
            #expect(try shapedWidth(grownText) + shapedWidth(Self.ellipsis) + shapedWidth(tailText) > width - 2)
        }
        if mode != .byTruncatingTail, let previous = elidedContent.last {
            let grown = clusterWidth(prepared, head) + ellipsisWidth + clusterWidth(prepared, previous.lowerBound..<tail.upperBound)
            #expect(grown > fixed, "\(line.displayText): one more at the tail would fit")
        }
    }

    @Test(arguments: truncating)
    func withoutALimitEachParagraphIsOneLineShortenedToFit(mode: LineBreakMode) throws {
        for text in Samples.all {
            let prepared = try PreparedText(text)
            for width in Samples.widths {
                let layout = try prepared.layout(width: width, lineBreakMode: mode)
                #expect(layout.lines.count == paragraphCount(text))
                #expect(layout.visibleUTF16Range.upperBound == prepared.utf16Count)
                let clipped = try prepared.layout(width: width, lineBreakMode: .byClipping)
                for (line, whole) in zip(layout.lines, clipped.lines) {
                    #expect(line.utf16Range == whole.utf16Range)
                    // Shortened exactly when the paragraph is wider than the box.
                    #expect((line.elidedRange != nil) == (whole.width > width))
                    #expect(line.width <= width)
                    if line.elidedRange == nil { #expect(line.displayText == String(whole.text)) }
                }
            }
        }
    }

    @Test(arguments: truncating)
    func withALimitTheLastLineShowsTheRestOfItsParagraph(mode: LineBreakMode) throws {
        let prepared = try PreparedText(Samples.latin)
        let width = 157.25
        let wrapped = try prepared.layout(width: width)
        for limit in 1...3 {
            let layout = try prepared.layout(width: width, lineBreakMode: mode, maximumNumberOfLines: limit)
            #expect(layout.lines.count == limit)
            #expect(layout.isTruncated)
            // The lines before the last wrap between words, as word wrapping does.
            #expect(Array(layout.lines.dropLast()) == Array(wrapped.lines.prefix(limit - 1)))
            let last = try #require(layout.lines.last)
            #expect(last.utf16Range.lowerBound == wrapped.lines[limit - 1].utf16Range.lowerBound)
            // It runs to the end of the first paragraph, which does not fit: the ellipsis shows.
            #expect(last.text.last == "\n" && last.lineEnd == .mandatoryBreak)
            let elided = try #require(last.elidedUTF16Range)
            switch mode {
            case .byTruncatingTail:
                #expect(elided.lowerBound > last.utf16Range.lowerBound)
                #expect(last.displayText.hasSuffix(Self.ellipsis + "\n"))
            case .byTruncatingHead:
                #expect(elided.lowerBound == last.utf16Range.lowerBound)
                #expect(last.displayText.hasPrefix(Self.ellipsis) && last.displayText.hasSuffix("ever since.\n"))
            default:
                #expect(elided.lowerBound > last.utf16Range.lowerBound)
                #expect(last.displayText.hasSuffix("since.\n") && !last.displayText.hasPrefix(Self.ellipsis))
            }
        }
    }

    @Test(arguments: truncating)
    func hiddenParagraphsAfterAFittingLastLine(mode: LineBreakMode) throws {
        let layout = try PreparedText("Short first\nsecond paragraph").layout(width: 300, lineBreakMode: mode,
                                                                            maximumNumberOfLines: 1)
        #expect(layout.isTruncated)
        #expect(layout.visibleUTF16Range == 0..<12)
        let line = try #require(layout.lines.first)
        if mode == .byTruncatingTail {
            // The tail says the text goes on, although its own paragraph fits.
            #expect(line.displayText == "Short first" + Self.ellipsis + "\n")
            #expect(line.elidedUTF16Range == 11..<11)
            #expect(abs(line.width - (try shapedWidth("Short first")) - (try shapedWidth(Self.ellipsis))) < 0.1)
        } else {
            #expect(line.displayText == "Short first\n")
            #expect(line.elidedRange == nil)
        }
    }

    @Test func textThatFitsItsLimitIsNotTruncated() throws {
        let prepared = try PreparedText(Samples.latin)
        let count = try prepared.layout(width: 200).lines.count
        for mode in Self.truncating {
            let exact = try prepared.layout(width: 200, lineBreakMode: mode, maximumNumberOfLines: count)
            #expect(!exact.isTruncated && exact.lines.allSatisfy { $0.elidedRange == nil })
            let short = try prepared.layout(width: 200, lineBreakMode: mode, maximumNumberOfLines: count - 1)
            #expect(short.isTruncated)
        }
    }

    @Test func spacesBeforeTheEllipsisAreDropped() throws {
        let text = "aaaa bbbb cccc dddd"
        let prepared = try PreparedText(text)
        let ellipsis = try shapedWidth(Self.ellipsis)
        // Room for "aaaa " and the ellipsis, not for "aaaa b": the space goes.
        let width = try shapedWidth("aaaa ") + ellipsis + 0.25
        let tail = try prepared.layout(width: width, lineBreakMode: .byTruncatingTail)
        #expect(tail.lines.map(\.displayText) == ["aaaa" + Self.ellipsis])
        #expect(tail.lines.first?.elidedUTF16Range == 4..<19)
        let head = try prepared.layout(width: try shapedWidth(" dddd") + ellipsis + 0.25, lineBreakMode: .byTruncatingHead)
        #expect(head.lines.map(\.displayText) == [Self.ellipsis + "dddd"])
    }

    @Test func aBoxNarrowerThanTheEllipsisShowsTheEllipsisAlone() throws {
        let prepared = try PreparedText("Hello")
        for mode in Self.truncating {
            let line = try #require(try prepared.layout(width: 3, lineBreakMode: mode).lines.first)
            #expect(line.displayText == Self.ellipsis)
            #expect(line.width == Double(prepared.ellipsis.width) / Double(Units.widthPerPixel))
        }
    }

    /// Clusters a naive cut would split: a ZWJ family, a flag, e + U+0301, at
    /// every width from too narrow for one of them to all of them.
    @Test(arguments: truncating)
    func truncationNeverSplitsACluster(mode: LineBreakMode) throws {
        let text = Samples.clustersOnly
        let prepared = try PreparedText(text)
        let allowed = Set(["👩‍👩‍👧", "🇯🇵", "e\u{301}", Self.ellipsis].map(Character.init))
        var lengths: Set<Int> = []
        for quarterPixels in stride(from: 20, through: 1200, by: 7) {
            let width = Double(quarterPixels) / 4
            let layout = try prepared.layout(width: width, lineBreakMode: mode)
            let shown = try #require(layout.lines.first).displayText
            #expect(Set(shown).isSubset(of: allowed), "\(width): \(shown.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(shown.unicodeScalars.first != "\u{301}" && !shown.contains("\u{2026}\u{301}"))
            lengths.insert(shown.count)
        }
        // The widths swept show many different amounts of text.
        #expect(lengths.count > 10)
    }
}
