// swift-tools-version: 6.0
import Foundation
import PackageDescription

// One module per pipeline stage, data flowing one way:
// SiteLoader → LocatedYAML → SchemaValidation → ImageProcessing → Enrichment → CatalogueIndex → Rendering → OutputWriter.
// `Noticeboard` strings the stages together (Sources/Noticeboard/Stages.swift); the `noticeboard` executable is a thin CLI
// over it. Rendering's Sources/Rendering/Outputs.swift declares every file a build writes.
let package = Package(
    name: "Noticeboard",
    products: [
        .executable(name: "noticeboard", targets: ["NoticeboardCLI"]),
        .library(name: "Noticeboard", targets: ["Noticeboard"]),
        // For apps: mirrors a site's API, fetching only what changed (Foundation, URLSession and swift-crypto only).
        .library(name: "NoticeboardClient", targets: ["NoticeboardClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-algorithms", from: "1.2.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // SHA-256 for the client library: CryptoKit on Apple platforms, BoringSSL elsewhere.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // C libraries from Debian: libyaml-dev, libcmark-gfm-dev + libcmark-gfm-extensions-dev.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // libvips (libvips-dev), for the variants of listing photos.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // libwebpmux (libwebp-dev, which libvips-dev brings): WebP chunks, to drop the metadata libvips 8.14 keeps.
        .systemLibrary(name: "CWebPMux", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        // OpenSSL's libcrypto (libssl-dev), for SHA-256 (the manifest's digests, render keys, the image cache's keys).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // zlib (zlib1g-dev): `sync` counts what a body costs gzipped when the server did not say.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // renameat2(RENAME_EXCHANGE) and open(O_PATH) are hidden behind _GNU_SOURCE, which Swift's Glibc module does not set; openat2 has no glibc wrapper.
        .target(name: "CLinuxCalls"),

        // What every stage may use and none owns: SHA-256, paths below the site root, the parallel map, a seeded RNG.
        .target(name: "Support", dependencies: ["CCrypto"]),
        .target(name: "SiteModel", dependencies: ["Support", .product(name: "OrderedCollections", package: "swift-collections")]),
        .target(name: "LocatedYAML", dependencies: ["CYAML", "SiteModel"]),
        .target(name: "SiteLoader", dependencies: ["SiteModel", "Support", "CLinuxCalls", "PathJournal"]),
        // cmark-gfm's process-wide state made safe for parses on every core: its table of special characters,
        // its allocation count. C, for the count's thread-local storage and to take the place of one library function.
        .target(name: "CCmarkThreads", dependencies: ["CCmarkGFM"]),
        // cmark-gfm for validation (each Markdown field checked against the site's limits) and enrichment.
        .target(name: "Markdown", dependencies: ["SiteModel", "CCmarkGFM", "CCmarkThreads"]),
        .target(name: "SchemaValidation", dependencies: ["SiteModel", "LocatedYAML", "Markdown"]),
        .target(name: "ImageProcessing", dependencies: ["SiteModel", "SiteLoader", "Support", "CVips", "CWebPMux"]),
        .target(name: "Enrichment", dependencies: ["SiteModel", "Markdown"]),
        // ICU's collator (libicu-dev), behind a C file of its own: text sorts in the site's language.
        .target(name: "CCollation", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        .target(
            name: "CatalogueIndex",
            dependencies: ["SiteModel", "Support", "Enrichment", "CCollation", .product(name: "Algorithms", package: "swift-algorithms")]),
        .target(
            name: "Rendering",
            dependencies: ["SiteModel", "Support", "CatalogueIndex", .product(name: "Mustache", package: "swift-mustache")]),
        // The site read and checked as a whole (LoadedSite): config, schemas, listings across files (slugs,
        // references), free pages, templates, images. It takes the paths pages may not take from Rendering's
        // declared outputs, and compiles the templates with Rendering's TemplateSet.
        .target(
            name: "SiteValidation",
            dependencies: ["SiteModel", "Support", "SiteLoader", "LocatedYAML", "SchemaValidation", "ImageProcessing", "Rendering"]),
        // Journals of the files a command puts in a folder, before it puts them: the writer's and the client's, which
        // links no generator module.
        .target(name: "PathJournal"),
        .target(name: "OutputWriter", dependencies: ["SiteModel", "Support", "SiteLoader", "Rendering", "CLinuxCalls", "PathJournal"]),
        .target(
            name: "Noticeboard",
            dependencies: [
                "Support", "SiteModel", "SiteLoader", "LocatedYAML", "SchemaValidation", "ImageProcessing", "SiteValidation", "Markdown",
                "Enrichment", "CatalogueIndex", "Rendering", "OutputWriter", .product(name: "OrderedCollections", package: "swift-collections"),
            ]),
        // Made-up catalogues of any size for `make bench` (the hidden `noticeboard generate`).
        .target(name: "SyntheticSite", dependencies: ["SiteModel", "Support"]),
        // The preview server stays out of the pipeline library, so the pipeline's tests do not wait for Hummingbird.
        .target(
            name: "NoticeboardServer",
            dependencies: ["Noticeboard", "Rendering", "SiteLoader", "SiteModel", "Support", .product(name: "Hummingbird", package: "hummingbird")]),
        // The client apps link: no dependency on the generator's modules.
        .target(name: "NoticeboardClient", dependencies: ["PathJournal", .product(name: "Crypto", package: "swift-crypto")]),
        .executableTarget(
            name: "NoticeboardCLI",
            dependencies: [
                "Noticeboard", "NoticeboardServer", "NoticeboardClient", "CZlib", "OutputWriter", "PathJournal", "Support", "SyntheticSite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // `noticeboard new` copies this starter site.
            resources: [.copy("Scaffold")],
            // mimalloc (libmimalloc-dev) takes malloc's place in the program: a build makes and frees millions of
            // small values on every core, and glibc's allocator took a tenth of its CPU (L: 14 % less user CPU and
            // 16 % less peak memory; README's Benchmark section). Linked, not preloaded, so every run gets it, with
            // its own settings: freed memory stays a while to be used again (README).
            linkerSettings: [.linkedLibrary("mimalloc")]),
        .testTarget(
            name: "NoticeboardTests",
            dependencies: [
                "Noticeboard", "Support", "SiteModel", "LocatedYAML", "SchemaValidation", "ImageProcessing", "Markdown", "Enrichment", "Rendering",
                "OutputWriter", "SiteLoader", "SiteValidation", "CatalogueIndex", "SyntheticSite", "NoticeboardClient", "NoticeboardServer", "PathJournal",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]),
    ]
)

// The libFuzzer target over parsing, validation and rendering. Only scripts/fuzz.sh builds it (it sets NOTICEBOARD_FUZZ=1 and
// uses its own scratch folder): libFuzzer supplies its main, so it cannot link in an ordinary build.
if ProcessInfo.processInfo.environment["NOTICEBOARD_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "FuzzParseValidate",
            dependencies: ["LocatedYAML", "SchemaValidation", "SiteModel", "Markdown", "Enrichment", "CatalogueIndex", "Rendering"],
            path: "Fuzz/FuzzParseValidate"))
}
