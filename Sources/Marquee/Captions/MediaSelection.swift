import MarqueeCore

/// What a group of alternative tracks is for, as AVMediaCharacteristic
/// says it; Marquee selects captions only.
public enum MediaCharacteristic: Sendable, Hashable {
    /// Text to read over the picture: subtitles and captions.
    case legible
}

/// One choice in a `MediaSelectionGroup`, like AVMediaSelectionOption: a
/// subtitle track of the item's file or a subtitle file beside it.
public struct MediaSelectionOption: Sendable, Hashable, CustomStringConvertible {
    public enum Source: Sendable, Hashable {
        /// The file's own track, by stream index.
        case track(Int)
        /// A sidecar file (`NAME.srt`, `NAME.de.vtt`, or a playlist entry's `captions`).
        case file(String)
    }

    public let source: Source
    /// The language as the track or file name says it ("en", "deu"), nil where neither does.
    public let languageCode: String?
    /// libavcodec's codec name ("mov_text", "subrip", "webvtt", "ass"); a
    /// sidecar's is known once it is read, and is its extension until then.
    public let codec: String
    public let title: String?

    public init(source: Source, languageCode: String?, codec: String, title: String? = nil) {
        self.source = source
        self.languageCode = languageCode
        self.codec = codec
        self.title = title
    }

    /// For a person: the language, the title, and where it comes from.
    public var displayName: String {
        let origin: String = switch source {
        case .track(let index): "track \(index)"
        case .file(let path): String(path.split(separator: "/").last ?? "")
        }
        return [languageCode, title, origin].compactMap { $0 }.joined(separator: ", ")
    }

    public var description: String { displayName }

    /// Whether the option is in `language` ("de" matches "deu" and "ger").
    public func isInLanguage(_ language: String) -> Bool {
        guard let languageCode else { return false }
        return LanguageCode.same(languageCode, language)
    }
}

/// The alternatives for one characteristic, like AVMediaSelectionGroup: an
/// item's subtitle tracks and sidecar files. None selected is allowed.
public struct MediaSelectionGroup: Sendable, Hashable {
    public let characteristic: MediaCharacteristic
    public let options: [MediaSelectionOption]

    public init(characteristic: MediaCharacteristic, options: [MediaSelectionOption]) {
        self.characteristic = characteristic
        self.options = options
    }

    public var allowsEmptySelection: Bool { true }
    /// The first option: a sidecar named for the item before the file's tracks.
    public var defaultOption: MediaSelectionOption? { options.first }

    /// The options in `languages`, in the order of `languages` (each
    /// language's options in the group's order), as AVMediaSelectionGroup's
    /// `mediaSelectionOptions(from:filteredAndSortedAccordingToPreferredLanguages:)`.
    public func options(preferring languages: [String]) -> [MediaSelectionOption] {
        languages.flatMap { language in options.filter { $0.isInLanguage(language) } }
    }

    /// What `criteria` selects: the first option in a preferred language;
    /// with none in any of them (or no languages given), the default.
    public func option(for criteria: MediaSelectionCriteria) -> MediaSelectionOption? {
        options(preferring: criteria.preferredLanguages).first ?? defaultOption
    }
}

/// How a player picks an item's captions, like AVPlayerMediaSelectionCriteria:
/// the languages preferred, best first.
public struct MediaSelectionCriteria: Sendable, Hashable {
    public var preferredLanguages: [String]

    public init(preferredLanguages: [String] = []) {
        self.preferredLanguages = preferredLanguages
    }
}

/// ISO 639-1 and 639-2 codes of one language, as containers (639-2, "eng";
/// bibliographic or terminology) and people ("en") write them.
enum LanguageCode {
    private static let codes: [[String]] = [
        ["en", "eng"], ["de", "deu", "ger"], ["fr", "fra", "fre"], ["es", "spa"], ["it", "ita"], ["nl", "nld", "dut"],
        ["pt", "por"], ["sv", "swe"], ["da", "dan"], ["no", "nor", "nob", "nno"], ["fi", "fin"], ["pl", "pol"],
        ["ru", "rus"], ["uk", "ukr"], ["cs", "ces", "cze"], ["sk", "slk", "slo"], ["hu", "hun"], ["ro", "ron", "rum"],
        ["el", "ell", "gre"], ["tr", "tur"], ["ar", "ara"], ["he", "heb"], ["fa", "fas", "per"], ["hi", "hin"],
        ["ja", "jpn"], ["zh", "zho", "chi"], ["ko", "kor"], ["th", "tha"], ["vi", "vie"], ["id", "ind"], ["ms", "msa", "may"],
    ]

    static func same(_ first: String, _ second: String) -> Bool {
        let (a, b) = (base(first), base(second))
        if a == b { return true }
        return codes.contains { $0.contains(a) && $0.contains(b) }
    }

    /// "en-GB" and "en_US" are English.
    private static func base(_ code: String) -> String {
        String(code.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
    }
}
