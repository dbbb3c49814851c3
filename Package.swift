// swift-tools-version:6.1
// 6.1: package traits (EmbeddedFonts). The fonts are included with the assembler's
// .incbin, which every 6.1 toolchain compiles.
import PackageDescription

let package = Package(
    name: "TextMeasure",
    products: [
        .library(name: "TextMeasure", targets: ["TextMeasure"]),
        .executable(name: "textmeasure", targets: ["textmeasure"]),
        // Golden heights and two-sided wrap assertions for an app's own tests.
        .library(name: "TextMeasureTesting", targets: ["TextMeasureTesting"]),
    ],
    traits: [
        // The 17 MB of default fonts compiled into the library (FontSet.default). Off
        // (`swift build --disable-default-traits`, or `traits: []` on the dependency),
        // FontSet.default is empty and every font set is the caller's.
        .trait(name: "EmbeddedFonts", description: "Compile the default fonts (17 MB) into the library"),
        .default(enabledTraits: ["EmbeddedFonts"]),
    ],
    targets: [
        // System libraries: thin module maps, found through pkg-config.
        .systemLibrary(name: "CICU", path: "Sources/CICU", pkgConfig: "icu-uc",
                       providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // libhyphen has no pkg-config file: its module map links it by name.
        .systemLibrary(name: "CHyphen", path: "Sources/CHyphen", providers: [.apt(["libhyphen-dev"])]),
        // ICU behind a C target whose header has no ICU types (see CTextICU.h).
        // Debug builds (the tests) count the calls into ICU and HarfBuzz; release builds do not.
        .target(name: "CTextICU", dependencies: ["CICU"],
                cSettings: [.define("CTX_MEASURING_PROBE", .when(configuration: .debug))]),
        // The default fonts, compiled in with .incbin (EmbeddedFontData.S) from Fonts/.
        .target(name: "CTextMeasureFonts",
                cSettings: [.headerSearchPath("../../Fonts"),
                            .define("TEXTMEASURE_EMBEDDED_FONTS", .when(traits: ["EmbeddedFonts"]))]),

        // The library, one target per pipeline stage (docs/architecture.md). Each stage
        // depends only on the stage before it, which re-exports everything upstream, so
        // a reference to a later stage does not compile. Between stages, `package` access.
        .target(name: "TextMeasureCore"),
        .target(name: "TextMeasureSegmentation", dependencies: ["TextMeasureCore", "CTextICU", "CHarfBuzz", "CHyphen"]),
        .target(name: "TextMeasureFonts",
                dependencies: ["TextMeasureSegmentation", "CFreeType", "CHarfBuzz", "CTextMeasureFonts"]),
        .target(name: "TextMeasureShaping", dependencies: ["TextMeasureFonts", "CHarfBuzz", "CTextICU"]),
        .target(name: "TextMeasurePreparation", dependencies: ["TextMeasureShaping", "CHarfBuzz", "CTextICU"]),
        .target(name: "TextMeasureLineFitting", dependencies: ["TextMeasurePreparation"]),
        .target(name: "TextMeasurePlacement", dependencies: ["TextMeasureLineFitting", "CHarfBuzz"]),
        .target(name: "TextMeasureSizing", dependencies: ["TextMeasurePlacement"]),
        // What users import: every stage's public API, re-exported.
        .target(name: "TextMeasure", dependencies: ["TextMeasureSizing"]),
        // Draws laid-out text into PNGs (FreeType's rasterizer, libpng): the CLI's
        // render command and the pictures of failed golden cases.
        .target(name: "TextMeasureRender", dependencies: ["TextMeasure", "CFreeType", "CPNG"]),
        // Golden-height files (record, verify) and the two-sided wrap check, with no test
        // framework: the CLI uses it, and so it links neither XCTest nor Swift Testing.
        .target(name: "TextMeasureTestingCore", dependencies: ["TextMeasure", "TextMeasureRender"]),
        // The product: TextMeasureTestingCore plus Swift Testing and XCTest adapters.
        .target(name: "TextMeasureTesting", dependencies: ["TextMeasureTestingCore"]),
        .executableTarget(name: "textmeasure",
                          dependencies: ["TextMeasure", "TextMeasureTestingCore", "TextMeasureRender",
                                         "CHarfBuzz", "CTextICU"]),
        .testTarget(name: "TextMeasureTests", dependencies: ["TextMeasure", "CTextICU", "CHyphen"]),
        .testTarget(name: "TextMeasureRenderTests", dependencies: ["TextMeasure", "TextMeasureRender", "CPNG"]),
        .testTarget(name: "TextMeasureTestingTests", dependencies: ["TextMeasureTesting", "textmeasure"]),
        // Runs the built executable; depending on it makes `swift test` build it first.
        .testTarget(name: "TextMeasureCLITests", dependencies: ["textmeasure"]),
    ],
    swiftLanguageModes: [.v6]
)
