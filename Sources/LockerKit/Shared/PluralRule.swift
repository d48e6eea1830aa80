/// Which plural form (index into `msgstr[n]`) a count takes in each shipped language.
///
/// English, Spanish and Italian: `n != 1`; French: `n > 1` (0 is singular). These are the
/// `Plural-Forms` expressions of the catalogues' headers.
public enum PluralRule {
    public static func formIndex(for count: Int, language: Language) -> Int {
        switch language {
        case .fr: return count > 1 ? 1 : 0
        case .en, .es, .it: return count != 1 ? 1 : 0
        }
    }
}
