import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// Placement: bidi reordering, alignment, boxes, carets and hit testing, with the
/// issue's repros as regression tests.
@Suite struct PlacementTests {
    /// A text placed at `width`, with helpers to find the boxes of its parts.
    struct Placed {
        let text: String
        let prepared: PreparedText
        let placement: TextPlacement
        let width: Double

        init(_ text: String, width: Double = 400, direction: WritingDirection = .natural,
             alignment: TextAlignment = .natural) throws {
            self.text = text
            self.width = width
            prepared = try PreparedText(text, style: TextStyle(baseWritingDirection: direction, alignment: alignment))
            placement = prepared.placement(of: try prepared.layout(width: width, emptyLines: .label))
        }

        /// The UTF-16 range of the `occurrence`-th `part` of the text.
        func range(of part: String, occurrence: Int = 0) -> Range<Int> {
            let units = Array(text.utf16), needle = Array(part.utf16)
            var found = 0
            for start in 0...(units.count - needle.count) where Array(units[start..<start + needle.count]) == needle {
                if found == occurrence { return start..<start + needle.count }
                found += 1
            }
            Issue.record("\(part) not in \(text)")
            return 0..<0
        }

        /// The clusters of `part`.
        func clusters(_ part: String, occurrence: Int = 0) -> [TextPlacement.Cluster] {
            let range = range(of: part, occurrence: occurrence)
            return placement.clusters.filter { range.contains($0.utf16Range.lowerBound) }
        }

        /// The left and right edges of `part` as drawn.
        func span(_ part: String, occurrence: Int = 0) -> ClosedRange<Double> {
            let boxes = clusters(part, occurrence: occurrence)
            return (boxes.map(\.left).min() ?? 0)...(boxes.map(\.right).max() ?? 0)
        }

        /// The text's clusters from left to right on line `line`.
        func visualText(line: Int = 0) -> String {
            let utf16 = Array(text.utf16)
            return placement.visualOrder[placement.lines[line].visualClusters].map { index in
                String(decoding: utf16[placement.clusters[index].utf16Range], as: UTF16.self)
            }.joined()
        }
    }

    static let epsilon = 1e-6

    // MARK: The issue's repros

    @Test func hebrewSentenceWithEnglishNamesReadsRightToLeftWithTheNamesInOrder() throws {
        let placed = try Placed("הפגישה עם John Smith נקבעה ל-3 PM ביום שני.")
        #expect(placed.placement.lines.count == 1)
        #expect(placed.placement.lines[0].isRightToLeft)
        // Right to left: הפגישה, עם, "John Smith", נקבעה, ל-3 PM, ביום שני, and the period at the far left.
        #expect(placed.span("עם").lowerBound >= placed.span("Smith").upperBound - Self.epsilon)
        #expect(placed.span("John").upperBound <= placed.span("Smith").lowerBound + Self.epsilon)
        #expect(placed.span("נקבעה").upperBound <= placed.span("John").lowerBound + Self.epsilon)
        #expect(placed.span("PM").upperBound <= placed.span("נקבעה").lowerBound + Self.epsilon)
        #expect(placed.span("ביום").upperBound <= placed.span("PM").lowerBound + Self.epsilon)
        #expect(placed.span(".").upperBound <= placed.span("שני").lowerBound + Self.epsilon)
        // One space between each pair of words, drawn between them: no glued words, no doubled gaps.
        let space = placed.clusters(" ", occurrence: 3)[0]   // after "Smith", before "נקבעה"
        #expect(abs(space.right - placed.span("John").lowerBound) < Self.epsilon)
        #expect(abs(space.left - placed.span("נקבעה").upperBound) < Self.epsilon)
        // Right-aligned: the first word ends at the right edge.
        #expect(abs(placed.span("הפגישה").upperBound - 400) < Self.epsilon)
    }

    @Test func glyphsOfShalomJohnOlamAreInVisualOrder() throws {
        let placed = try Placed("שלום John עולם")
        let glyphs = try #require(placed.prepared.glyphs(in: placed.placement).first)
        #expect(glyphs.map(\.x) == glyphs.map(\.x).sorted())
        // Left to right: עולם (10–13), the space, John (5–8), the space, שלום (0–3).
        var order: [Int] = []
        for glyph in glyphs where order.last != glyph.utf16Offset { order.append(glyph.utf16Offset) }
        #expect(order == [13, 12, 11, 10, 9, 5, 6, 7, 8, 4, 3, 2, 1, 0])
        #expect(placed.visualText() == "םלוע John םולש")
    }

    @Test func bracketAfterHebrewInEnglishStaysWithTheEnglishAndIsNotMirrored() throws {
        let placed = try Placed("at מרכז העיר (downtown)")
        #expect(placed.visualText() == "at ריעה זכרמ (downtown)")
        let open = placed.clusters("(")[0]
        #expect(!open.isRightToLeft)
        #expect(open.left >= placed.span("העיר").upperBound)
        // The glyph drawn is the font's "(", not its mirror.
        let glyphs = try #require(placed.prepared.glyphs(in: placed.placement).first)
        let openGlyph = try #require(glyphs.first { $0.utf16Offset == open.utf16Range.lowerBound })
        let english = try Placed("(downtown)")
        let plain = try #require(english.prepared.glyphs(in: english.placement).first?.first)
        #expect(openGlyph.glyphID == plain.glyphID)
    }

    @Test func rightToLeftLinesAreRightAlignedAndStayInTheirBox() throws {
        let placed = try Placed("مرحبا بالعالم، هذه فقرة عربية طويلة لاختبار", width: 190)
        #expect(placed.placement.lines.count == 2)
        for (index, line) in placed.placement.lines.enumerated() {
            let drawn = placed.placement.visualOrder[line.visualClusters].map { placed.placement.clusters[$0] }
                .filter { placed.text.utf16[placed.text.utf16.index(placed.text.utf16.startIndex, offsetBy: $0.utf16Range.lowerBound)] != 0x20 }
            #expect(drawn.allSatisfy { $0.left >= -Self.epsilon && $0.right <= 190 + Self.epsilon }, "line \(index)")
            #expect(abs((drawn.map(\.right).max() ?? 0) - 190) < Self.epsilon, "line \(index) is right-aligned")
        }
        // The line's trailing space hangs on its left, past the content, not inside the box's right edge.
        let space = placed.clusters(" ", occurrence: 4)[0]   // after "عربية", ending line 1
        #expect(space.line == 0)
        #expect(space.right <= placed.span("عربية").lowerBound + Self.epsilon)
    }

    // MARK: Bidi cases

    @Test func bracketPairAroundLatinInHebrewTakesTheHebrewDirection() throws {
        let placed = try Placed("שלום (John) עולם")
        // Rule N0: the pair resolves to the embedding direction (right to left), so "(" is
        // drawn at John's right (mirrored by HarfBuzz: it looks like ")"), ")" at its left.
        #expect(placed.visualText() == "םלוע )John( םולש")
        let open = placed.clusters("(")[0], close = placed.clusters(")")[0]
        #expect(open.isRightToLeft && close.isRightToLeft)
        #expect(open.left >= placed.span("John").upperBound - Self.epsilon)
        #expect(close.right <= placed.span("John").lowerBound + Self.epsilon)
    }

    @Test(arguments: [("התקשרו 03-555-1234 עכשיו", "03-555-1234", "התקשרו"),
                      ("اتصل على +966 11 234", "966", "اتصل"),
                      ("המחיר 1,299.90 ₪ בלבד", "1,299.90", "המחיר"),
                      ("الصفحات ١٢٣ فقط", "١٢٣", "الصفحات")])
    func numbersInRightToLeftTextReadLeftToRight(text: String, number: String, firstWord: String) throws {
        let placed = try Placed(text)
        let digits = placed.clusters(number)
        #expect(digits.map(\.left) == digits.map(\.left).sorted(), "digits left to right")
        #expect(digits.allSatisfy { !$0.isRightToLeft })
        // The number comes after the first word, so it is drawn to its left.
        #expect(placed.span(number).upperBound <= placed.span(firstWord).lowerBound + Self.epsilon)
    }

    /// After Arabic letters European digits become Arabic numbers (rule W2), and a
    /// hyphen between two of them is a neutral that takes the Arabic direction: each
    /// digit run reads left to right, the runs right to left ("7781-45"), as in Chromium.
    /// A right-to-left line with runs at the level above (digits, Latin) and a
    /// ligature to share: laid as rule L2 orders it, edge to edge, the ligature's
    /// width shared between its letters.
    @Test func aRightToLeftLineWithDigitsLatinAndALigatureIsLaidInVisualOrder() throws {
        let placed = try Placed("لا 42 abc")
        #expect(placed.placement.lines.count == 1)
        #expect(placed.visualText() == "abc 42 ال")
        let line = placed.placement.lines[0]
        let boxes = placed.placement.visualOrder[line.visualClusters].map { placed.placement.clusters[$0] }
        #expect(boxes.map(\.isRightToLeft) == [false, false, false, true, false, false, true, true, true])
        #expect(abs((boxes.first?.left ?? .nan) - line.left) < Self.epsilon)
        #expect(abs((boxes.last?.right ?? .nan) - line.right) < Self.epsilon)
        for (box, next) in zip(boxes, boxes.dropFirst()) { #expect(abs(box.right - next.left) < Self.epsilon) }
        let lam = try #require(placed.clusters("ل").first), alef = try #require(placed.clusters("ا").first)
        #expect(lam.right - lam.left > 1)
        #expect(abs((lam.right - lam.left) - (alef.right - alef.left)) < 0.01)
    }

    /// Lines in text order, reversed, or reordered otherwise, in one text and apart
    /// (the visual order is stored only when a line needs it): each line's visual
    /// order holds its own clusters, left to right, edge to edge.
    @Test(arguments: ["مرحبا بكم في البيت\nHello there friend\nأهلا وسهلا يا صديقي",
                      "مرحبا بكم في البيت\nأهلا 42 وسهلا abc\nHello there friend",
                      "Hello there my friend\nمرحبا بكم في البيت يا صديقي"])
    func everyLinesVisualOrderIsItsClustersFromLeftToRight(text: String) throws {
        let placed = try Placed(text, width: 120)
        let placement = placed.placement
        #expect(placement.lines.count >= 2)
        #expect(placement.visualOrder.count == placement.clusters.count)
        // Iterating (which walks the lines) and subscripting (which searches them) agree.
        var walked: [Int] = []
        for cluster in placement.visualOrder { walked.append(cluster) }
        #expect(walked == placement.visualOrder.indices.map { placement.visualOrder[$0] })
        var reversed = 0, inOrder = 0
        for (index, line) in placement.lines.enumerated() {
            let order = Array(placement.visualOrder[line.visualClusters])
            #expect(order.sorted() == Array(line.visualClusters))
            #expect(order.allSatisfy { placement.clusters[$0].line == index })
            let boxes = order.map { placement.clusters[$0] }.filter { !$0.isLineBreak }
            for (box, next) in zip(boxes, boxes.dropFirst()) { #expect(abs(box.right - next.left) < Self.epsilon) }
            if order.count > 1, order == order.sorted() { inOrder += 1 }
            if order.count > 1, order == order.sorted().reversed() { reversed += 1 }
        }
        // Both kinds of line are there: right-to-left ones reversed, left-to-right ones in order.
        #expect(reversed > 0 && inOrder > 0)
    }

    @Test func anArabicPhoneNumberWithAHyphenReadsAsArabicDoes() throws {
        let placed = try Placed("اتصل على 45-7781 الآن")
        for run in ["45", "7781"] {
            let digits = placed.clusters(run)
            #expect(digits.map(\.left) == digits.map(\.left).sorted() && digits.allSatisfy { !$0.isRightToLeft })
        }
        #expect(placed.span("45").lowerBound >= placed.span("-").upperBound - Self.epsilon)
        #expect(placed.span("-").lowerBound >= placed.span("7781").upperBound - Self.epsilon)
        // The same number after Hebrew stays one left-to-right run: W2 is for Arabic letters only.
        let hebrew = try Placed("התקשרו 45-7781 עכשיו")
        #expect(hebrew.span("45").upperBound <= hebrew.span("7781").lowerBound + Self.epsilon)
    }

    @Test func neutralPunctuationAtADirectionBoundaryTakesTheParagraphsDirection() throws {
        // "!" between Hebrew and the end: left to right paragraph, so it goes right of the Hebrew.
        let english = try Placed("Hello שלום!")
        #expect(english.visualText() == "Hello םולש!")
        // In a right-to-left paragraph the same "!" after English goes to the far left.
        let hebrew = try Placed("שלום Hello!")
        #expect(hebrew.visualText() == "!Hello םולש")
        // A comma between two Hebrew words inside English is Hebrew's (both sides agree: N1).
        let comma = try Placed("Say שלום, עולם now")
        #expect(comma.visualText() == "Say םלוע ,םולש now")
    }

    @Test func eachParagraphTakesItsOwnDirection() throws {
        let placed = try Placed("Hello world\nשלום עולם", width: 300)
        #expect(placed.placement.lines.map(\.isRightToLeft) == [false, true])
        #expect(abs(placed.span("Hello").lowerBound) < Self.epsilon)
        #expect(abs(placed.span("שלום").upperBound - 300) < Self.epsilon)
        let forced = try Placed("Hello world\nשלום עולם", width: 300, direction: .leftToRight)
        #expect(forced.placement.lines.map(\.isRightToLeft) == [false, false])
        #expect(abs(forced.span("עולם").lowerBound) < Self.epsilon)
    }

    @Test(arguments: TextAlignment.allCases)
    func alignmentFollowsTheParagraphDirection(alignment: TextAlignment) throws {
        let ltr = try Placed("abc", width: 100, alignment: alignment)
        let rtl = try Placed("אבג", width: 100, alignment: alignment)
        let ltrWidth = ltr.span("abc").upperBound - ltr.span("abc").lowerBound
        let rtlWidth = rtl.span("אבג").upperBound - rtl.span("אבג").lowerBound
        let (ltrLeft, rtlLeft): (Double, Double) = switch alignment {
        case .natural: (0, 100 - rtlWidth)
        case .end: (100 - ltrWidth, 0)
        case .left: (0, 0)
        case .right: (100 - ltrWidth, 100 - rtlWidth)
        case .center: ((100 - ltrWidth) / 2, (100 - rtlWidth) / 2)
        }
        #expect(abs(ltr.span("abc").lowerBound - ltrLeft) < 1.0 / 64)
        #expect(abs(rtl.span("אבג").lowerBound - rtlLeft) < 1.0 / 64)
    }

    // MARK: Carets and hit testing

    @Test func caretsAtADirectionBoundaryAreOnBothSides() throws {
        let placed = try Placed("abc אבג def")
        let boundary = placed.range(of: "אבג").lowerBound
        let space = placed.clusters(" ")[0], alef = placed.clusters("א")[0]
        let upstream = try #require(placed.placement.caretRect(for: boundary, affinity: .upstream))
        let downstream = try #require(placed.placement.caretRect(for: boundary, affinity: .downstream))
        #expect(abs(upstream.x - space.right) < Self.epsilon)   // after the space, left to right
        #expect(abs(downstream.x - alef.right) < Self.epsilon)  // before alef, which starts on its right
        #expect(downstream.x - upstream.x > 10)
        // Inside a run both affinities agree.
        let inside = placed.range(of: "b").lowerBound
        #expect(placed.placement.caretRect(for: inside, affinity: .upstream)?.x
                == placed.placement.caretRect(for: inside, affinity: .downstream)?.x)
    }

    @Test func hitTestingAPointFindsTheClusterDrawnThere() throws {
        let placed = try Placed("שלום (John) עולם 123 and more", width: 120)
        #expect(placed.placement.lines.count > 1)
        for (index, cluster) in placed.placement.clusters.enumerated() where !cluster.isLineBreak {
            let line = placed.placement.lines[cluster.line]
            let x = (cluster.left + cluster.right) / 2, y = line.y + line.height / 2
            #expect(placed.placement.clusterIndex(atX: x, y: y) == index)
            // The nearer edge in text order: a right-to-left cluster starts on its right.
            let leftQuarter = placed.placement.closestPosition(toX: cluster.left + (cluster.right - cluster.left) / 4, y: y)
            #expect(leftQuarter == (cluster.isRightToLeft ? cluster.utf16Range.upperBound : cluster.utf16Range.lowerBound))
        }
        // Beyond the text: the nearest cluster of the nearest line.
        #expect(placed.placement.clusterIndex(atX: -50, y: -50) != nil)
    }

    @Test func aSelectionAcrossADirectionBoundaryIsSplit() throws {
        let placed = try Placed("abc אבג def")
        // "c אב": c and the space on the left, א and ב inside the Hebrew run, apart.
        let rects = placed.placement.selectionRects(for: placed.range(of: "c אב"))
        #expect(rects.count == 2)
        #expect(placed.placement.selectionRects(for: placed.range(of: "abc")).count == 1)
    }

    // MARK: Cost

    @Test func placingLinesCallsNeitherICUNorHarfBuzz() throws {
        let prepared = try PreparedText("הפגישה עם John Smith נקבעה ל-3 PM ביום שני. مرحبا بالعالم، هذه فقرة")
        let layout = try prepared.layout(width: 150)
        let before = MeasuringProbe.callsOnThisThread
        for alignment in TextAlignment.allCases { _ = prepared.placement(of: layout, alignment: alignment) }
        #expect(MeasuringProbe.callsOnThisThread == before)
        // Drawing shapes again, which the probe sees: it is not free.
        _ = prepared.glyphs(in: prepared.placement(of: layout))
        #expect(MeasuringProbe.callsOnThisThread > before)
    }

    @Test func plainLeftToRightTextNeedsNoBidi() throws {
        let prepared = try PreparedText("Plain text, 中文, ελληνικά, no right-to-left letters")
        #expect(prepared.bidi.isLeftToRight)
        let rtl = try PreparedText("Plain text", style: TextStyle(baseWritingDirection: .rightToLeft))
        #expect(!rtl.bidi.isLeftToRight)
        #expect(rtl.bidi.paragraphLevel(at: 0) == 1)
    }
}
