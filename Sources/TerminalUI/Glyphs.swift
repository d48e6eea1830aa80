/// The characters used for lines, markers and bars, in a Unicode and an ASCII variant.
///
/// `--ascii` selects the ASCII set: box drawing and braille are read aloud as noise by screen
/// readers and missing from some fonts.
public struct Glyphs: Sendable, Equatable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    public var pointer: String
    public var ellipsis: String
    public var sliderFilled: String
    public var sliderEmpty: String
    public var sliderMarker: String
    /// A slider cell filled in part, from the least to the most: ⅛ … ⅞ in Unicode, ½ in ASCII.
    public var sliderPartials: [String]
    public var scrollThumb: String
    public var scrollTrack: String
    public var bullet: String
    public var check: String
    public var cross: String
    public var warning: String
    public var lock: String
    public var separator: String
    public var ascii: Bool

    public static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯",
        pointer: "▶", ellipsis: "…", sliderFilled: "█", sliderEmpty: "░", sliderMarker: "┃",
        sliderPartials: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"],
        scrollThumb: "┃", scrollTrack: "│", bullet: "•", check: "✓", cross: "✗", warning: "!",
        lock: "🔒", separator: "│", ascii: false)

    public static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        pointer: ">", ellipsis: "...", sliderFilled: "#", sliderEmpty: "-", sliderMarker: "|", sliderPartials: ["="],
        scrollThumb: "#", scrollTrack: "|", bullet: "*", check: "v", cross: "x", warning: "!",
        lock: "L", separator: "|", ascii: true)
}
