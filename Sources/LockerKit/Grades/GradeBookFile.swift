import FoundationEssentials

extension GradeBook {
    /// grades.json, byte for byte as `JSONFile.encoded` writes it (pretty-printed, keys
    /// sorted), encoded one unit at a time. `JSONEncoder` builds a tree of the whole value
    /// before it writes a byte: for a 4,000-course book that tree was the Grades tab's peak
    /// memory (2.6 MiB more than the book itself, at every save). Here only one unit's tree
    /// lives at a time, and the rest is the file's text.
    public static func fileData(_ book: GradeBook) throws -> Data {
        let encoder = JSONFile.encoder()
        var text = Data()
        /// `value` as the encoder writes it, its lines after the first indented by `indent`
        /// spaces, where it sits in the file. A newline byte only ever ends a line there (in a
        /// string it is written `\n`), and the encoder leaves empty lines (an empty array's)
        /// without spaces.
        func append(_ value: some Encodable, indent: Int) throws {
            let newline = UInt8(ascii: "\n")
            let margin = [UInt8](repeating: UInt8(ascii: " "), count: indent)
            var lineStart = false
            for byte in try encoder.encode(value) {
                if lineStart, byte != newline { text.append(contentsOf: margin) }
                text.append(byte)
                lineStart = byte == newline
            }
        }
        func key(_ name: String, first: Bool = false) {
            text.append(contentsOf: Array(((first ? "{\n" : ",\n") + "  \"" + name + "\" : ").utf8))
        }
        // The keys in sorted order, as `.sortedKeys` writes them.
        key("blocks", first: true)
        try append(book.blocks, indent: 2)
        key("format")
        try append(book.format, indent: 2)
        key("passMark")
        try append(book.passMark, indent: 2)
        key("scale")
        try append(book.scale, indent: 2)
        key("units")
        if book.units.isEmpty {
            try append(book.units, indent: 2)
        } else {
            text.append(contentsOf: Array("[\n".utf8))
            for (index, unit) in book.units.enumerated() {
                if index > 0 { text.append(contentsOf: Array(",\n".utf8)) }
                text.append(contentsOf: Array("    ".utf8))
                try append(unit, indent: 4)
            }
            text.append(contentsOf: Array("\n  ]".utf8))
        }
        key("version")
        try append(book.version, indent: 2)
        text.append(contentsOf: Array("\n}".utf8))
        return text
    }
}
