// swift-tools-version:6.0
import PackageDescription

/// A C library family imported through its pkg-config file; Debian's -dev
/// package is the provider, since nothing outside the toolchain can be fetched.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "Marquee",
    // An app composes a player the way the `marquee` command does: the
    // library, the display and sound backends, the configuration file and the
    // controls are each a product of their own.
    products: [
        .library(name: "Marquee", targets: ["Marquee"]),
        .library(name: "MarqueeKMS", targets: ["MarqueeKMS"]),
        .library(name: "MarqueeOverlays", targets: ["MarqueeOverlays"]),
        .library(name: "MarqueeALSA", targets: ["MarqueeALSA"]),
        .library(name: "MarqueeConfig", targets: ["MarqueeConfig"]),
        .library(name: "MarqueeControl", targets: ["MarqueeControl"]),
        .library(name: "MarqueeHTTP", targets: ["MarqueeHTTP"]),
        .library(name: "MarqueeFleet", targets: ["MarqueeFleet"]),
        .library(name: "MarqueeApp", targets: ["MarqueeApp"]),
        .executable(name: "marquee", targets: ["marquee"]),
    ],
    targets: [
        systemLibrary("CFFmpeg", pkgConfig: "libavformat",
                      apt: ["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libavfilter-dev", "libswscale-dev", "libswresample-dev"]),
        systemLibrary("CDRM", pkgConfig: "libdrm", apt: ["libdrm-dev"]),
        systemLibrary("CVA", pkgConfig: "libva-drm", apt: ["libva-dev"]),
        systemLibrary("CALSA", pkgConfig: "alsa", apt: ["libasound2-dev"]),
        systemLibrary("CGPIOD", pkgConfig: "libgpiod", apt: ["libgpiod-dev"]),
        systemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: ["libmicrohttpd-dev"]),
        systemLibrary("CGnuTLS", pkgConfig: "gnutls", apt: ["libgnutls28-dev"]),
        // libass draws every text (fontconfig finds the fonts, HarfBuzz shapes them), as mpv's OSD does;
        // libmosquitto is the MQTT client a screen joins its fleet's broker with. Both are opened on
        // first use (CSharedLibrary), not linked: a screen without text or a fleet never maps them.
        .target(name: "CSharedLibrary"),
        .target(name: "CLibass", dependencies: ["CSharedLibrary"]),
        .target(name: "CMosquitto", dependencies: ["CSharedLibrary"]),
        .target(name: "CMarqueeShims", dependencies: ["CFFmpeg", "CDRM"],
                linkerSettings: [.linkedLibrary("avutil"), .linkedLibrary("drm")]),

        .target(name: "CLinuxTime"),
        .target(name: "MarqueeCore"),
        .target(name: "MarqueeFFmpeg", dependencies: ["CFFmpeg", "CVA", "CMarqueeShims", "MarqueeCore"]),
        .target(name: "Marquee", dependencies: ["MarqueeCore", "MarqueeFFmpeg", "MarqueeOverlays"]),
        // The app layer: a configuration made into a show (players, outputs,
        // controls, reloads, the schedule, the HTTP API); the CLI is one user.
        .target(name: "MarqueeApp", dependencies: ["Marquee", "MarqueeKMS", "MarqueeOverlays", "MarqueeALSA", "MarqueeConfig", "MarqueeControl",
                                                  "MarqueeHTTP", "MarqueeFleet"]),
        .executableTarget(name: "marquee", dependencies: ["CMarqueeShims", "Marquee", "MarqueeKMS", "MarqueeALSA", "MarqueeConfig", "MarqueeControl", "MarqueeHTTP",
                                                          "MarqueeFleet", "MarqueeApp"],
                          // lld packs the relative relocations of the Swift runtime linked
                          // in (--static-swift-stdlib) into DT_RELR: kilobytes instead of
                          // megabytes that the loader reads and keeps resident at every start.
                          // It lays the functions playing runs out together
                          // (board/link-order/update): code is mapped 64 kB around each
                          // page touched, so scattered they kept 3 MB more of it resident.
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                         "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/board/link-order/marquee.order",
                                                         "-Xlinker", "--no-warn-symbol-ordering"])],
                          plugins: ["BuildInfo"]),
        // The commit and build-time library versions `marquee --version` reports.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        .target(name: "MarqueeKMS", dependencies: ["CDRM", "CMarqueeShims", "MarqueeCore"]),
        .target(name: "MarqueeOverlays", dependencies: ["CLibass", "MarqueeCore", "MarqueeFFmpeg"]),
        .target(name: "MarqueeTestSupport", dependencies: ["MarqueeCore"]),
        .target(name: "MarqueeALSA", dependencies: ["CALSA", "MarqueeCore"]),
        .target(name: "MarqueeConfig", dependencies: ["MarqueeCore"]),
        .target(name: "MarqueeControl", dependencies: ["MarqueeCore", "CGPIOD", "CLinuxTime"]),
        .target(name: "MarqueeHTTP", dependencies: ["MarqueeCore", "CMicroHTTPD", "CGnuTLS"]),
        .target(name: "MarqueeFleet", dependencies: ["MarqueeCore", "CMosquitto"]),
        .executableTarget(name: "toml-decoder", dependencies: ["MarqueeConfig"]),

        .testTarget(name: "MarqueeCoreTests", dependencies: ["MarqueeCore", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeFFmpegTests", dependencies: ["MarqueeCore", "MarqueeFFmpeg", "Marquee", "MarqueeTestSupport"]),
        .testTarget(name: "CImportsTests", dependencies: ["CMarqueeShims", "CDRM", "CVA", "CALSA", "CGPIOD", "CMicroHTTPD", "CGnuTLS", "CMosquitto", "CSharedLibrary"]),
        .testTarget(name: "MarqueeCLITests", dependencies: ["marquee", "Marquee", "MarqueeKMS", "MarqueeFFmpeg", "MarqueeTestSupport"],
                    exclude: ["Browser"]),
        .testTarget(name: "MarqueeEngineTests", dependencies: ["Marquee", "MarqueeFFmpeg", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeKMSTests", dependencies: ["MarqueeKMS", "MarqueeCore", "CDRM"]),
        .testTarget(name: "MarqueeALSATests", dependencies: ["MarqueeALSA", "Marquee", "MarqueeTestSupport", "marquee"]),
        .testTarget(name: "MarqueeConfigTests", dependencies: ["MarqueeConfig", "toml-decoder", "marquee", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeControlTests", dependencies: ["MarqueeControl", "marquee", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeHTTPTests", dependencies: ["MarqueeHTTP", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeOutputTests", dependencies: ["Marquee", "MarqueeFFmpeg", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueePictureTests", dependencies: ["Marquee", "MarqueeKMS", "MarqueeOverlays", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeFleetTests", dependencies: ["MarqueeFleet", "marquee", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeOverlaysTests", dependencies: ["MarqueeOverlays", "MarqueeCore"]),
    ],
    swiftLanguageModes: [.v6]
)
