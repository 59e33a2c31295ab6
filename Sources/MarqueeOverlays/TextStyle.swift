import MarqueeCore

/// How an overlay's text looks: what `[[overlay]]`'s `font`, `size`,
/// `color`, `outline` and `box` say, as one ASS style.
public struct TextStyle: Sendable, Equatable {
    /// A fontconfig family ("DejaVu Sans"); fontconfig falls back where it is not installed.
    public var font: String
    /// The font's size in pixels; smaller where the text would not fit its rectangle.
    public var size: Double
    /// 0xRRGGBB.
    public var color: UInt32
    /// Pixels of black border around each glyph; 0 for none.
    public var outline: Double
    /// A box behind the text, 0xRRGGBB; nil for none.
    public var box: UInt32?
    /// Where the text sits in its rectangle: the keypad's digits, ASS's `\an` (5: the middle).
    public var alignment: Int

    public init(font: String = "DejaVu Sans", size: Double = 48, color: UInt32 = 0xffffff, outline: Double = 2, box: UInt32? = nil,
                alignment: Int = 5) {
        self.font = font
        self.size = size
        self.color = color
        self.outline = outline
        self.box = box
        self.alignment = alignment
    }

    /// An ASS script that shows `text` in this style on a `frame`-sized
    /// canvas, at `fontSize`, lines broken only where the text breaks them.
    func script(_ text: String, frame: PixelSize, fontSize: Double) -> String {
        // BorderStyle 3 is VSFilter's opaque box, in the outline colour, padded by the outline width.
        let (border, outlineColour, outlineWidth) = box.map { (3, Self.assColour($0), max(outline, fontSize / 8)) }
            ?? (1, Self.assColour(0x000000), outline)
        return """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: \(frame.width)
            PlayResY: \(frame.height)
            ScaledBorderAndShadow: yes
            WrapStyle: 2

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Overlay,\(font.replacingComma),\(String(fontSize, places: 2)),\(Self.assColour(color)),\(Self.assColour(color)),\(outlineColour),\(outlineColour),0,0,0,0,100,100,0,0,\(border),\(String(outlineWidth, places: 2)),0,\(alignment),0,0,0,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.00,9:59:59.99,Overlay,,0,0,0,,\(Self.escaped(text))

            """
    }

    /// &H00BBGGRR: ASS writes colours blue first, transparency before them.
    static func assColour(_ rgb: UInt32) -> String {
        let bgr = (rgb & 0xff) << 16 | (rgb & 0xff00) | (rgb >> 16 & 0xff)
        let digits = String(bgr, radix: 16, uppercase: true)
        return "&H00" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// The text as ASS dialogue: braces would open override blocks and a
    /// backslash an escape; a line break is `\N`.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "{": out += "\\{"
            case "}": out += "\\}"
            // A word joiner after it keeps `\N`, `\n` and `\h` from forming.
            case "\\": out += "\\\u{2060}"
            case "\n": out += "\\N"
            case "\r": break
            default: out.append(character)
            }
        }
        return out
    }
}

extension String {
    /// A comma would end the style's font field.
    fileprivate var replacingComma: String { split(separator: ",").joined(separator: " ") }
}
