// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TextMeasure",
    products: [
        .library(name: "TextMeasure", targets: ["TextMeasure"]),
        .executable(name: "textmeasure", targets: ["textmeasure"]),
    ],
    targets: [
        // System libraries: thin module maps, found through pkg-config.
        .systemLibrary(name: "CICU", path: "Sources/CICU", pkgConfig: "icu-uc",
                       providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        // ICU behind a C target whose header has no ICU types (see CTextICU.h).
        .target(name: "CTextICU", dependencies: ["CICU"]),
        // The default fonts, compiled in with #embed.
        .target(name: "CTextMeasureFonts"),

        .target(name: "TextMeasure",
                dependencies: ["CTextICU", "CFreeType", "CHarfBuzz", "CTextMeasureFonts"]),
        .executableTarget(name: "textmeasure", dependencies: ["TextMeasure"]),
        .testTarget(name: "TextMeasureTests", dependencies: ["TextMeasure"]),
        // Runs the built executable; depending on it makes `swift test` build it first.
        .testTarget(name: "TextMeasureCLITests", dependencies: ["textmeasure"]),
    ],
    swiftLanguageModes: [.v6]
)
