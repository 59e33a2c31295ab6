import CLibass

/// Whether fontconfig has the family a text asks for: libass falls back to
/// another where it does not, and the user is told once, when the file is
/// read, rather than finding out from the screen.
public enum FontCheck {
    /// The family fontconfig would use for `family`: `family` itself when
    /// installed, else its fallback; nil when fontconfig cannot start (or
    /// be opened: the renderer reports that, where it matters).
    public static func resolve(_ family: String) -> String? {
        guard marquee_libass_load() == nil, let config = FcInitLoadConfigAndFonts() else { return nil }
        defer { FcConfigDestroy(config) }
        guard let pattern = FcNameParse(family) else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var name: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FAMILY, 0, &name) == FcResultMatch, let name else { return nil }
        return String(cString: name)
    }

    /// One line when `family` is not installed: what is used instead.
    public static func fallbackNote(for family: String) -> String? {
        guard let used = resolve(family), used.lowercased() != family.lowercased() else { return nil }
        return "font '\(family)' is not installed; '\(used)' is used instead"
    }
}
