import XCTest
@testable import TerminalUI

/// `WordForms.stem` folds a search word to a stem that is a prefix of the word's other forms.
/// Words are given already folded (lowercase, accents removed), as the search folds them; most
/// come from the rules digests in Data/diving/digest.
final class WordFormsTests: XCTestCase {
    /// (language, query, text word): the query's stem must be a prefix of the text word.
    static let matches: [(String, String, String)] = [
        ("en", "bounces", "bounce"), ("en", "bounce", "bouncing"), ("en", "penalties", "penalty"),
        ("en", "penalty", "penalties"), ("en", "jumped", "jump"), ("en", "touching", "touch"),
        ("en", "touching", "touches"), ("en", "touches", "touched"), ("en", "judges", "judge"),
        ("en", "judge", "judging"), ("en", "judged", "judges"), ("en", "dives", "dive"),
        ("en", "diving", "dives"), ("en", "failed", "fails"), ("en", "fails", "failed"),
        ("en", "repeated", "repeat"), ("en", "repeats", "repeated"), ("en", "restarted", "restart"),
        ("en", "restarting", "restarts"), ("en", "balks", "balk"), ("en", "balked", "balks"),
        ("en", "entries", "entry"), ("en", "entry", "entries"), ("en", "stopped", "stop"),
        ("en", "cancelled", "cancel"), ("en", "twisting", "twists"), ("en", "somersaults", "somersault"),
        ("en", "declares", "declared"), ("en", "deductions", "deduction"), ("en", "positions", "position"),
        ("en", "clearly", "clear"), ("en", "referees", "referee"), ("en", "running", "runs"),
        ("en", "awards", "awarded"),

        ("fr", "rebondit", "rebond"), ("fr", "rebond", "rebondit"), ("fr", "plongeons", "plongeon"),
        ("fr", "plongeon", "plongeons"), ("fr", "plongeons", "plongeur"), ("fr", "plongeurs", "plongeon"),
        ("fr", "departs", "depart"), ("fr", "depart", "departs"), ("fr", "juges", "juge"),
        ("fr", "juge", "jugement"), ("fr", "jugement", "juges"), ("fr", "penalites", "penalite"),
        ("fr", "penalite", "penalites"), ("fr", "touchent", "touche"), ("fr", "touchant", "touchent"),
        ("fr", "manquee", "manque"), ("fr", "manquante", "manques"), ("fr", "vrilles", "vrille"),
        ("fr", "vrillee", "vrilles"), ("fr", "annoncee", "annonce"), ("fr", "annonces", "annoncee"),
        ("fr", "fautive", "fautif"), ("fr", "fautes", "faute"), ("fr", "eliminees", "elimine"),
        ("fr", "genoux", "genou"), ("fr", "verticaux", "vertical"), ("fr", "individuelles", "individuel"),
        ("fr", "reglements", "regle"), ("fr", "mouvements", "mouvement"), ("fr", "flechissent", "flechi"),
        ("fr", "restantes", "reste"), ("fr", "premiere", "premier"), ("fr", "groupes", "groupe"),
        ("fr", "hauteurs", "haute"),

        ("es", "sanciones", "sancion"), ("es", "sancion", "sanciones"), ("es", "sanciona", "sanciones"),
        ("es", "saltos", "salto"), ("es", "salto", "saltos"), ("es", "saltadores", "salto"),
        ("es", "saltador", "saltan"), ("es", "jueces", "juez"), ("es", "juez", "jueces"),
        ("es", "posiciones", "posicion"), ("es", "posicion", "posiciones"), ("es", "tirabuzones", "tirabuzon"),
        ("es", "mortales", "mortal"), ("es", "fallado", "falla"), ("es", "fallido", "fallado"),
        ("es", "entradas", "entrada"), ("es", "entrada", "entra"), ("es", "declarado", "declara"),
        ("es", "anunciada", "anunciado"), ("es", "pueden", "puede"),
        ("es", "penalizaciones", "penalizacion"), ("es", "brazos", "brazo"), ("es", "rodillas", "rodilla"),
        ("es", "claramente", "claro"), ("es", "carpado", "carpada"), ("es", "estiradas", "estirado"),
        ("es", "repite", "repiten"),

        ("it", "giudici", "giudice"), ("it", "giudice", "giudici"), ("it", "penalita", "penalita"),
        ("it", "tuffi", "tuffo"), ("it", "tuffo", "tuffi"), ("it", "tuffatori", "tuffatore"),
        ("it", "tuffatori", "tuffo"), ("it", "posizioni", "posizione"), ("it", "avvitamenti", "avvitamento"),
        ("it", "avvitamento", "avvitati"), ("it", "toccano", "tocca"), ("it", "tocca", "toccano"),
        ("it", "eseguito", "eseguire"), ("it", "eseguono", "eseguita"), ("it", "carpiata", "carpiato"),
        ("it", "raggruppata", "raggruppato"), ("it", "annunciata", "annunciato"), ("it", "chiaramente", "chiaro"),
        ("it", "stacchi", "stacco"), ("it", "giurie", "giuria"), ("it", "mortali", "mortale"),
        ("it", "salti", "salto"), ("it", "partenze", "partenza"), ("it", "rimbalzi", "rimbalzo"),
        ("it", "ginocchia", "ginocchio"),
    ]

    /// (language, query, text word): the query's stem must NOT be a prefix of the text word.
    static let misses: [(String, String, String)] = [
        ("en", "bounce", "boundary"), ("en", "judges", "judo"), ("en", "twists", "twice"),
        ("en", "failed", "fairly"), ("en", "position", "positive"), ("en", "entry", "entire"),
        ("en", "repeated", "repair"), ("en", "restarted", "resting"), ("en", "penalty", "penance"),

        ("fr", "rebondit", "rebord"), ("fr", "departs", "depasser"), ("fr", "touchent", "toujours"),
        ("fr", "vrilles", "vrai"), ("fr", "penalites", "penible"), ("fr", "annonce", "anneau"),
        ("fr", "plongeurs", "plomb"), ("fr", "mouvements", "mourir"), ("fr", "equilibre", "equipe"),

        ("es", "sanciones", "santo"), ("es", "saltos", "salida"), ("es", "tirabuzones", "tirar"),
        ("es", "entrada", "entonces"), ("es", "posiciones", "positivo"), ("es", "mortales", "morir"),
        ("es", "brazos", "bravo"), ("es", "declarado", "decidir"), ("es", "rodillas", "rodeo"),

        ("it", "giudici", "giudizio"), ("it", "tuffi", "tutti"), ("it", "penalita", "penna"),
        ("it", "posizioni", "positivo"), ("it", "avvitamenti", "avviene"), ("it", "rincorsa", "rinforzo"),
        ("it", "ginocchia", "giocare"), ("it", "salti", "saluto"),
    ]

    /// (language, word, stem): exact stems, including words left unchanged.
    static let stems: [(String, String, String)] = [
        ("en", "penalties", "penalt"), ("en", "penalty", "penalt"), ("en", "running", "run"),
        ("es", "sanciones", "sanc"), ("es", "sancion", "sanc"), ("fr", "rebondit", "rebond"),
        ("en", "dies", "die"),          // "ies" would leave 1 letter; the next ending that fits
        ("en", "missing", "miss"), ("en", "passed", "pass"), ("en", "stopped", "stop"),  // undoubling
        ("en", "run", "run"), ("fr", "bon", "bon"), ("it", "tre", "tre"),  // 3 letters or fewer
        ("en", "5132d", "5132d"), ("en", "x-ray", "x-ray"), ("fr", "aujourd'hui", "aujourd'hui"),
        ("de", "sprungs", "sprungs"),   // unknown language
    ]

    func testQueryStemIsAPrefixOfTheOtherForms() {
        for (language, query, text) in Self.matches {
            let stem = WordForms.stem(query, language: language)
            XCTAssertTrue(text.hasPrefix(stem), "\(language): \"\(query)\" → \"\(stem)\" should find \"\(text)\"")
        }
    }

    func testQueryStemDoesNotFindUnrelatedWords() {
        for (language, query, text) in Self.misses {
            let stem = WordForms.stem(query, language: language)
            XCTAssertFalse(text.hasPrefix(stem), "\(language): \"\(query)\" → \"\(stem)\" should not find \"\(text)\"")
            XCTAssertGreaterThanOrEqual(stem.count, 4, "\(language): \"\(query)\" → \"\(stem)\"")
        }
    }

    func testExactStems() {
        for (language, word, expected) in Self.stems {
            XCTAssertEqual(WordForms.stem(word, language: language), expected, "\(language): \"\(word)\"")
        }
    }

    func testStemIsAPrefixOfTheWordOfAtLeastThreeLetters() {
        for (language, query, text) in Self.matches + Self.misses {
            for word in [query, text] where word.count > WordForms.minimumStem {
                let stem = WordForms.stem(word, language: language)
                XCTAssertTrue(word.hasPrefix(stem), "\(language): \"\(word)\" → \"\(stem)\"")
                XCTAssertGreaterThanOrEqual(stem.count, WordForms.minimumStem, "\(language): \"\(word)\" → \"\(stem)\"")
            }
        }
    }

    func testEveryLanguageIsCovered() {
        for language in ["en", "fr", "es", "it"] {
            XCTAssertNotNil(WordForms.languages[language], language)
            XCTAssertGreaterThanOrEqual(Self.matches.filter { $0.0 == language }.count, 12, language)
            XCTAssertGreaterThanOrEqual(Self.misses.filter { $0.0 == language }.count, 4, language)
        }
    }
}
