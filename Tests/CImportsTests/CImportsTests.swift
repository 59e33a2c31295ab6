import CALSA
import CDRM
import CGPIOD
import CMarqueeShims
import CMicroHTTPD
import CMosquitto
import CSharedLibrary
import CVA
import Foundation
import Testing

/// The system-library targets import and link: each library answers a call
/// that needs no hardware, and the shim's macro values match the headers' meaning.
@Suite struct CImportsTests {
    @Test func everyCLibraryLinksAndAnswers() {
        #expect(String(cString: snd_asoundlib_version()).hasPrefix("1."))
        #expect(String(cString: gpiod_version_string()).hasPrefix("1."))
        #expect(String(cString: vaErrorStr(VA_STATUS_SUCCESS)) == "success (no error)")
        #expect(String(cString: MHD_get_version()).hasPrefix("0.9."))
        // MarqueeHTTP's HTTPS is MHD's own: Debian builds it with GnuTLS.
        #expect(MHD_is_feature_supported(.FEATURE_TLS) == .YES)
        // libmosquitto is opened on first use, not linked.
        #expect(marquee_mosquitto_load() == nil)
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        _ = mosquitto_lib_version(&major, &minor, &revision)
        #expect(major == 2, "libmosquitto \(major).\(minor).\(revision)")
        // No /dev/dri here: libdrm must say so rather than crash.
        #expect(drmAvailable() == 0 || drmAvailable() == 1)
    }

    @Test func shimMacrosHaveTheirDefinedValues() {
        #expect(marquee_av_nopts_value() == Int64.min)
        #expect(marquee_averror(2) == -2)
        #expect(marquee_averror_eof() == -0x2046_4f45)  // -MKTAG('E','O','F',' ')
        // fourcc_code('X','R','2','4') is little-endian ASCII.
        #expect(marquee_drm_format_xrgb8888() == 0x3432_5258)
        #expect(marquee_drm_format_nv12() == 0x3231_564e)
        #expect(marquee_drm_format_mod_linear() == 0)
    }

    /// A library that cannot be opened, or lacks a function, is said with
    /// the call and dlerror's reason, and no slot is left half filled.
    @Test func aMissingLibraryOrFunctionIsNamed() {
        func open(_ soname: String, _ names: [String]) -> (failure: String?, slots: [UnsafeMutableRawPointer?]) {
            var slots = [UnsafeMutableRawPointer?](repeating: nil, count: names.count)
            let cNames = names.map { strdup($0) }
            defer { cNames.forEach { free($0) } }
            let failure = cNames.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
                slots.withUnsafeMutableBufferPointer { slotPointers in
                    soname.withCString { cSoname in
                        var library = marquee_shared_library(soname: cSoname, names: namePointers.baseAddress,
                                                             slots: slotPointers.baseAddress, count: names.count)
                        return marquee_shared_library_open(&library).map { String(cString: $0) }
                    }
                }
            }
            return (failure, slots)
        }
        let missing = open("libmarquee-missing.so.0", ["f"])
        #expect(missing.failure == "dlopen: libmarquee-missing.so.0: cannot open shared object file: No such file or directory")
        let lacking = open("libmosquitto.so.1", ["mosquitto_lib_init", "mosquitto_no_such_function"])
        #expect(lacking.failure?.hasPrefix("dlsym: ") == true, "\(lacking.failure ?? "nil")")
        #expect(lacking.failure?.contains("mosquitto_no_such_function") == true, "\(lacking.failure ?? "nil")")
        #expect(lacking.slots.allSatisfy { $0 == nil })
        let found = open("libmosquitto.so.1", ["mosquitto_lib_init", "mosquitto_lib_version"])
        #expect(found.failure == nil)
        #expect(found.slots.allSatisfy { $0 != nil })
    }

    /// The package's Depends and the board's image name the libraries
    /// opened on first use from board/dlopened-libraries, which cannot see
    /// the C loaders: the list and the sonames the loaders open must agree,
    /// and each must open here.
    @Test func theBoardListNamesTheLibrariesTheLoadersOpen() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let listed = try String(contentsOf: root.appendingPathComponent("board/dlopened-libraries"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var opened: [String] = []
        let sources = root.appendingPathComponent("Sources")
        for case let file as String in FileManager.default.enumerator(atPath: sources.path)! where file.hasSuffix(".c") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            guard text.contains("marquee_shared_library") else { continue }
            opened += text.matches(of: /"(lib[A-Za-z0-9_+-]+\.so\.[0-9]+)"/).map { String($0.output.1) }
        }
        #expect(!opened.isEmpty)
        #expect(Set(listed) == Set(opened))
        for soname in listed {
            let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)
            #expect(handle != nil, "\(soname): \(dlerror().map { String(cString: $0) } ?? "")")
            if let handle { dlclose(handle) }
        }
    }
}
