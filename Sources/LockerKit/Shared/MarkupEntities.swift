/// The five entities XML predefines, which HTML knows too: the only ones a workout file's text
/// may use by name, and the characters a page must escape.
public enum MarkupEntities {
    /// Each character and its entity's name.
    public static let names: [Character: String] = ["&": "amp", "<": "lt", ">": "gt", "\"": "quot", "'": "apos"]

    /// The character an entity's name stands for.
    public static let characters: [Substring: Character] = Dictionary(uniqueKeysWithValues: names.map { (Substring($1), $0) })

    /// `text` with each of the five characters written as its entity.
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if let name = names[character] { out += "&" + name + ";" } else { out.append(character) }
        }
        return out
    }
}
