// swift-tools-version:6.0
// libFuzzer targets for TextMeasure, a package of their own so that the main
// package's `swift build` and `swift test` never see them: their executables have
// no `main` (libFuzzer brings one) and only link with `-sanitize=fuzzer`.
// Build and run them with `scripts/fuzz` at the repository root.
import PackageDescription

let package = Package(
    name: "TextMeasureFuzz",
    dependencies: [.package(name: "TextMeasure", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "TextMeasure", package: "TextMeasure")]),
        .executableTarget(name: "fuzz-text", dependencies: ["FuzzSupport", .product(name: "TextMeasure", package: "TextMeasure")]),
        .executableTarget(name: "fuzz-font", dependencies: ["FuzzSupport", .product(name: "TextMeasure", package: "TextMeasure")]),
        .executableTarget(name: "fuzz-case", dependencies: ["FuzzSupport", .product(name: "TextMeasure", package: "TextMeasure")]),
    ],
    swiftLanguageModes: [.v6]
)
