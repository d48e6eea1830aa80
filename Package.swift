// swift-tools-version:6.0
import PackageDescription

// Locker: a full-screen terminal app (ncurses) with six tabs.
// Module boundaries: docs/ARCHITECTURE.md §1 (only TerminalUI imports CNcurses). Each target
// names every module it imports, none reached only through another.
/// Release `locker` is one static executable: the Swift runtime, FoundationEssentials, the C
/// library, libstdc++, libm and ncurses (with its terminfo part, tinfo) are linked in, so start-up
/// binds no symbols and maps no shared library. Each shared library brought its own pages into the
/// peak RSS (libc, libm, libstdc++ and ncurses about 2.5 MiB, docs/PERFORMANCE.md), and a static
/// executable is not position-independent, so start-up dirties no page with relocations
/// (ARCHITECTURE §7g, §7k). FoundationEssentials' helper libraries are named because the
/// driver's static arguments do not name them on Linux.
let staticExecutableFlags = ["-static-executable", "-Xlinker", "-ltinfo",
                             "-Xlinker", "-l_FoundationCShims", "-Xlinker", "-l_FoundationCollections",
                             "-Xlinker", "-lswiftSynchronization"]

/// Release builds of the modules `locker` runs are optimised for size: the statically linked
/// binary's code pages are most of the peak RSS, and `-Osize` keeps fewer of them resident
/// (0.2 MiB less at 80×24, 0.3 MiB at 200×60) for the same CPU per key (docs/PERFORMANCE.md).
/// Every function gets a section of its own (the compiler gives one only to those other files
/// can call), so that the link can place each one (`linkOrderFlags`). A concrete generic type
/// (`[Tab: TabSlot]`, `Set<UInt8>`) is made by calling its metadata accessor, not by demangling
/// its name: demangling looks its conformances up (`Hashable`) in every conformance record of the
/// binary, about 300,000 instructions for each type the first time, 28 % of a start-up's main
/// thread before its first frame (docs/PERFORMANCE.md, First frame).
let sizeReleaseSettings: [SwiftSetting] = [.unsafeFlags(["-Osize", "-Xfrontend", "-function-sections",
                                                         "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                                                        .when(configuration: .release))]

/// The release link of `locker` places the functions a session runs first, side by side, in
/// the order of Sources/locker/link-order.txt (written by scripts/link-order). The kernel maps
/// a program's code 64 KB around each page touched, so code spread over the whole binary kept
/// most of it resident: this takes about 2.5 MiB off the peak RSS (docs/PERFORMANCE.md). lld
/// (part of the Swift toolchain) reads the list by symbol; a function not in it is placed after
/// them, so a list older than the code costs memory, never correctness.
let packageDirectory = String(#filePath.dropLast("Package.swift".count))
let linkOrderFlags = ["-use-ld=lld",
                      "-Xlinker", "--symbol-ordering-file=\(packageDirectory)Sources/locker/link-order.txt",
                      "-Xlinker", "--no-warn-symbol-ordering"]

/// Release builds of the interface's own modules leave out the run-time exclusivity checks
/// (the compiler still checks what it can see): they were about 4 % of a frame's CPU at 200×60
/// (`swift_beginAccess`, docs/PERFORMANCE.md). Debug builds, and so the tests, keep them.
let uiReleaseSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
    + sizeReleaseSettings


let package = Package(
    name: "Locker",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "locker", targets: ["locker"]),
        .executable(name: "locker-games", targets: ["locker-games"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The games server and its client (issue 13): HTTP on Hummingbird 2, PostgreSQL through
        // postgres-nio, HTTPS requests through AsyncHTTPClient, one log line per request.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The only door to ncurses: wide-char API plus accessors for macros and globals.
        .target(
            name: "CNcurses",
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        .target(
            name: "TerminalUI",
            dependencies: ["CNcurses"],
            swiftSettings: [.swiftLanguageMode(.v5)] + uiReleaseSettings
        ),
        // glibc's malloc settings, which the Glibc module does not export.
        .target(name: "CMalloc"),
        // The system's libcrypt (yescrypt password hashes) and kernel random bytes.
        .target(
            name: "CCrypt",
            linkerSettings: [.linkedLibrary("crypt")]
        ),
        // Models, view-models and background work: Swift 6 language mode, so a value shared
        // with a worker thread that is not Sendable is a compile error (issue 16).
        .target(
            name: "LockerKit",
            swiftSettings: [.swiftLanguageMode(.v6)] + uiReleaseSettings
        ),
        // Games storage (SQLite through GRDB, PostgreSQL through postgres-nio), the HTTP server
        // and its typed client. GRDB and NIO import full Foundation, so this lives in its own
        // program, `locker-games`, and never in the start-up path of `locker`. Swift 6 mode.
        .target(
            name: "LockerGames",
            dependencies: ["LockerKit", "CCrypt", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdTLS", package: "hummingbird"),
                           .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOSSL", package: "swift-nio-ssl"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What both command-line programs share: early language, failures, JSON, root options.
        .target(
            name: "LockerCommandLine",
            dependencies: ["LockerKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: [.swiftLanguageMode(.v5)] + sizeReleaseSettings
        ),
        .target(
            name: "LockerApp",
            dependencies: ["TerminalUI", "LockerKit"],
            swiftSettings: [.swiftLanguageMode(.v5)] + uiReleaseSettings
        ),
        .executableTarget(
            name: "locker",
            dependencies: [
                "LockerApp", "LockerKit", "TerminalUI", "LockerCommandLine", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["link-order.txt"],
            swiftSettings: [.swiftLanguageMode(.v5)] + sizeReleaseSettings,
            // Release builds are one static executable (`staticExecutableFlags` above), its
            // code in the order of `linkOrderFlags`.
            linkerSettings: [.unsafeFlags(staticExecutableFlags + linkOrderFlags, .when(configuration: .release))]
        ),
        // `locker account|login|logout|games …` are run by this program (locker execs it).
        .executableTarget(
            name: "locker-games",
            dependencies: [
                "LockerGames", "LockerKit", "LockerCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "LockerKitTests", dependencies: ["LockerKit", "LockerGames", "TerminalUI"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        // The games contract over HTTP, against SQLite and a real PostgreSQL (.ci/run starts one).
        .testTarget(name: "GamesServerTests", dependencies: ["LockerGames", "LockerKit",
                                                             .product(name: "PostgresNIO", package: "postgres-nio"),
                                                             .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                             .product(name: "NIOHTTP1", package: "swift-nio"),
                                                             .product(name: "NIOCore", package: "swift-nio"),
                                                             .product(name: "NIOSSL", package: "swift-nio-ssl"),
                                                             .product(name: "Logging", package: "swift-log")],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "LockerAppTests", dependencies: ["LockerApp", "LockerKit", "TerminalUI"],
                    exclude: ["Golden"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        // Drives the built `locker` binary in tmux; depending on it makes `swift test` build it.
        .testTarget(name: "EndToEndTests", dependencies: ["locker", "locker-games", "LockerKit", "LockerCommandLine"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
