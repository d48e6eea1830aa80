import FoundationEssentials

/// A text written in each interface language (data files carry these; the interface strings go
/// through the PO catalogues instead). English is the fallback.
public struct LocalizedText: Codable, Equatable, Sendable {
    public var texts: [String: String]

    public init(_ texts: [Language: String]) {
        self.texts = Dictionary(uniqueKeysWithValues: texts.map { ($0.key.rawValue, $0.value) })
    }

    /// Reads the object's texts in the interface languages (other keys are not read). A keyed
    /// container of the four languages, because decoding a `[String: String]` takes the JSON
    /// decoder's generic dictionary path, which made the question bank several times slower to
    /// decode at start (docs/PERFORMANCE.md, "First frame").
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: LanguageKey.self)
        var texts: [String: String] = [:]
        for language in Language.allCases {
            if let text = try container.decodeIfPresent(String.self, forKey: LanguageKey(language)) {
                texts[language.rawValue] = text
            }
        }
        self.texts = texts
    }

    private struct LanguageKey: CodingKey {
        let stringValue: String
        init(_ language: Language) { stringValue = language.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(texts)
    }

    /// The text in `language`, else English, else any.
    public func text(_ language: Language) -> String {
        if let text = texts[language.rawValue], !text.isEmpty { return text }
        return texts["en"] ?? texts.values.first ?? ""
    }

    /// The languages missing or empty here.
    public var missingLanguages: [Language] {
        Language.allCases.filter { (texts[$0.rawValue] ?? "").isEmpty }
    }
}

/// A bundled or user data file that cannot be used, with the file and what is wrong.
public struct DataFileError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String
    public init(file: String, reason: String) { self.file = file; self.reason = reason }
    public var description: String { "\(file): \(reason)" }

    /// What `load` gave, or why it failed: its `DataFileError`, or any other error worded as one
    /// naming `file`.
    public static func result<T>(file: String, _ load: () throws -> T) -> Result<T, DataFileError> {
        do {
            return .success(try load())
        } catch let error as DataFileError {
            return .failure(error)
        } catch {
            return .failure(DataFileError(file: file, reason: "\(error)"))
        }
    }

    /// Decodes a JSON data file; any failure becomes a `DataFileError` naming the file and,
    /// for bad content, where in it.
    public static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        try decode(type, from: contents(of: url), file: url.lastPathComponent)
    }

    /// The bytes of a data file, or a `DataFileError` saying it cannot be read.
    public static func contents(of url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw DataFileError(file: url.lastPathComponent, reason: "cannot be read")
        }
    }

    /// Decodes JSON bytes already read (imports, tests and fuzzing); `file` names them in errors.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw DataFileError(file: file, reason: error.summary)
        } catch {
            throw DataFileError(file: file, reason: "cannot be read")
        }
    }
}
