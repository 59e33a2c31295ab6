import CALSA

/// The ALSA library this process runs against.
public enum ALSALibrary {
    /// What libasound reports at run time (`snd_asoundlib_version()`), e.g. "1.2.8".
    public static var version: String { String(cString: snd_asoundlib_version()) }
}
