import MarqueeCore

extension PictureFilters {
    /// These filters as a libavfilter graph for pictures of `colour`; nil when there are none.
    ///
    /// Deinterlacing is bwdif (yadif's edge-directed, less flickering
    /// successor): `deint=interlaced` deinterlaces only the frames flagged
    /// interlaced, which `PictureFilter` sets per frame, so progressive
    /// frames of a mixed stream pass through the same graph untouched.
    ///
    /// HDR to SDR: zscale reads the picture as tagged into linear light with
    /// 100 cd/m2 as 1.0 (so a 1000-nit highlight is 10.0), maps BT.2020
    /// primaries to BT.709, tonemap's Hable curve compresses the highlights
    /// (desat=0: colours are not washed toward white), and zscale writes
    /// limited-range BT.709 with the BT.709 curve. A wide-gamut SDR picture
    /// only has its primaries mapped. The result is 8-bit 4:2:0, what the
    /// converter and the display planes take.
    func graph(for colour: ColourDescription, width: Int, height: Int) -> String? {
        var chain: [String] = []
        if let deinterlace {
            chain.append("bwdif=mode=\(deinterlace == .field ? "send_field" : "send_frame"):parity=auto:deint=interlaced")
        }
        if let rangeConversion {
            let input = "tin=\(Self.zscaleTransfer(colour.transfer)):min=\(Self.zscaleMatrix(colour.effectiveMatrix(width: width, height: height)))"
                + ":pin=2020:rin=\(colour.effectiveRange == .full ? "pc" : "tv")"
            let output = "t=bt709:m=bt709:r=tv"
            switch rangeConversion {
            case .pq, .hlg:
                chain += ["zscale=\(input):t=linear:npl=100", "format=gbrpf32le", "zscale=p=bt709",
                          "tonemap=tonemap=hable:desat=0", "zscale=\(output)", "format=yuv420p"]
            case .wideGamut:
                chain += ["zscale=\(input):p=bt709:\(output)", "format=yuv420p"]
            }
        }
        return chain.isEmpty ? nil : chain.joined(separator: ",")
    }

    private static func zscaleTransfer(_ transfer: ColourDescription.Transfer) -> String {
        switch transfer {
        case .pq: "smpte2084"
        case .hlg: "arib-std-b67"
        // BT.2020's SDR curve is BT.709's.
        case .sdr: "bt709"
        }
    }

    private static func zscaleMatrix(_ matrix: ColourDescription.Matrix) -> String {
        switch matrix {
        case .bt709: "bt709"
        case .bt2020: "2020_ncl"
        case .bt601, .unspecified: "170m"
        }
    }
}
