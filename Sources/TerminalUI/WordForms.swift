/// Folds a word to a stem so that a search finds the word's other forms (`TextMatcher` uses it
/// for the language of `TextMatcher.language`).
///
/// Search in Locker is a substring search over folded text (lowercase, no accents). To let a
/// query such as "penalties" find "penalty", the search looks for the query word's stem instead
/// of the word: the stem is the word with one common ending removed ("penalties" → "penalt"), so
/// it is a prefix of the word's other forms ("penalty", "penalties"). Stems are deliberately
/// short: matching a few unrelated words is better than missing a form.
///
/// This is light suffix stripping, not a full stemmer: one ending, from a short per-language
/// list, is removed, and irregular forms ("went", "yeux") are not related to their base.
public enum WordForms {
    /// The fewest letters a stem keeps: words of this length or shorter are left alone.
    public static let minimumStem = 3

    /// The languages `stem(_:language:)` knows: their endings, longest first.
    public static let languages: [String: [String]] = [
        "en": ["ings", "ing", "ied", "ies", "ed", "es", "ly", "s", "e", "y"],
        "fr": [
            "issements", "issement", "ements", "issent", "ement", "elles", "antes",
            "elle", "ante", "ants", "eurs", "ives", "ees", "ent", "ant", "eur", "ons",
            "aux", "ive", "ifs", "es", "ee", "er", "ir", "it", "if", "e", "s", "x",
        ],
        "es": [
            "amientos", "imientos", "amiento", "imiento", "adores", "adoras", "amente",
            "mente", "iones", "ador", "adora", "ando", "iendo", "ados", "adas", "idos", "idas",
            "ion", "ado", "ada", "ido", "ida", "ces", "an", "en", "ar", "er", "ir", "as", "os",
            "es", "a", "o", "e", "s", "z",
        ],
        "it": [
            "amento", "amenti", "imento", "imenti", "amente", "atrice", "atrici", "mente",
            "atore", "atori", "ando", "endo", "ano", "ono", "ato", "ata", "ati", "ate", "ito",
            "ita", "iti", "ite", "uto", "uta", "uti", "ute", "are", "ere", "ire", "hi", "he",
            "i", "e", "a", "o",
        ],
    ].mapValues { $0.sorted { $0.count > $1.count } }

    /// English endings after which a doubled final consonant is undoubled
    /// ("stopped" → "stop", "cancelled" → "cancel").
    private static let doublingEndings: Set<String> = ["ed", "ing", "ings"]

    /// The stem of one already-folded word (lowercase, no accents, letters only) in `language`
    /// ("en", "fr", "es", "it"): the longest suffix from the language's list removed when at
    /// least `minimumStem` letters remain; otherwise the word itself.
    ///
    /// A word with a digit or any other non-letter, a word of `minimumStem` letters or fewer,
    /// and a word in a language not in `languages` are returned unchanged.
    ///
    /// ```swift
    /// WordForms.stem("penalties", language: "en")  // "penalt", a prefix of "penalty"
    /// WordForms.stem("sanciones", language: "es")  // "sanc", a prefix of "sancion"
    /// ```
    public static func stem(_ word: String, language: String) -> String {
        guard word.count > minimumStem, word.allSatisfy(\.isLetter),
              let endings = languages[language] else { return word }
        for ending in endings where word.hasSuffix(ending) && word.count - ending.count >= minimumStem {
            let stem = String(word.dropLast(ending.count))
            return language == "en" && doublingEndings.contains(ending) ? undoubled(stem) : stem
        }
        return word
    }

    /// `stem` without the last letter when it ends in a doubled consonant other than "ss" (a
    /// base ending: "missing" → "miss") and keeps at least `minimumStem` letters ("runn" → "run");
    /// otherwise `stem` itself.
    private static func undoubled(_ stem: String) -> String {
        let last = stem.suffix(2)
        guard stem.count > minimumStem, last.first == last.last,
              let letter = last.last, !"aeious".contains(letter) else { return stem }
        return String(stem.dropLast())
    }
}
