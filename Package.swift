// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TextMeasure",
    products: [
        .library(name: "TextMeasure", targets: ["TextMeasure"]),
        .executable(name: "textmeasure", targets: ["textmeasure"]),
        // Golden heights and two-sided wrap assertions for an app's own tests.
        .library(name: "TextMeasureTesting", targets: ["TextMeasureTesting"]),
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
        .target(name: "CTextICU", dependencies: ["CICU"]),
        // The default fonts, compiled in with #embed.
        .target(name: "CTextMeasureFonts"),

        .target(name: "TextMeasure",
                dependencies: ["CTextICU", "CFreeType", "CHarfBuzz", "CTextMeasureFonts", "CHyphen"]),
        // Draws laid-out text into PNGs (FreeType's rasterizer, libpng): the CLI's
        // render command and the pictures of failed golden cases.
        .target(name: "TextMeasureRender", dependencies: ["TextMeasure", "CFreeType", "CPNG"]),
        // Golden-height files (record, verify) and the two-sided wrap check, with no test
        // framework: the CLI uses it, and so it links neither XCTest nor Swift Testing.
        .target(name: "TextMeasureTestingCore", dependencies: ["TextMeasure", "TextMeasureRender"]),
        // The product: TextMeasureTestingCore plus Swift Testing and XCTest adapters.
        .target(name: "TextMeasureTesting", dependencies: ["TextMeasureTestingCore"]),
        .executableTarget(name: "textmeasure",
                          dependencies: ["TextMeasure", "TextMeasureTestingCore", "TextMeasureRender"]),
        .testTarget(name: "TextMeasureTests", dependencies: ["TextMeasure", "CHyphen"]),
        .testTarget(name: "TextMeasureRenderTests", dependencies: ["TextMeasure", "TextMeasureRender", "CPNG"]),
        .testTarget(name: "TextMeasureTestingTests", dependencies: ["TextMeasureTesting", "textmeasure"]),
        // Runs the built executable; depending on it makes `swift test` build it first.
        .testTarget(name: "TextMeasureCLITests", dependencies: ["textmeasure"]),
    ],
    swiftLanguageModes: [.v6]
)
