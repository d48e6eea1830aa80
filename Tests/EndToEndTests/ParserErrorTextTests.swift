import XCTest
import LockerKit
@testable import LockerCommandLine

/// Each form of ArgumentParser's usage errors that Locker says again in the user's language.
final class ParserErrorTextTests: XCTestCase {
    private let french = Localizer(directory: Resources.locate()?.localizationDirectory, language: .fr)

    func testEveryKnownFormIsSaidAgainAndAnUnknownOneIsKept() {
        let forms = [
            "Unknown option '--x'. Did you mean '--tab'?", "Unknown option '--x'", "Invalid option: -é", "Missing value for '--at <time>'",
            "Missing expected argument '<code>'", "Missing one of: '--a', '--b'", "Missing required subcommand.",
            "Unexpected argument 'x'", "3 unexpected arguments: 'a', 'b', 'c'",
            "The option '--json' does not take any value, but 'yes' was specified.",
            "The value 'x' is invalid for '--height <h>'", "The value 'x' is invalid for '--h <h>': not a height",
            "The value 'x' is invalid for '<kind>'. Please provide one of 'a', 'b' or 'c'.",
            "The value 'x' is invalid.", "The value 'x' is invalid for '--kind <k>'. Please provide one of the following:\n  - one\n  - two\n  - three\n  - four\n  - five\n  - six",
        ]
        for form in forms {
            let said = ParserErrorText.translate(form, french)
            XCTAssertNotEqual(said.split(separator: "\n").first, form.split(separator: "\n").first, form)
            XCTAssertFalse(said.contains("Please provide") || said.contains("  - "), said)
        }
        XCTAssertTrue(ParserErrorText.translate(forms.last!, french).contains("one, two, three, four, five, six"))
        XCTAssertTrue(ParserErrorText.translate("The value 'x' is invalid for '--h <h>': not a height", french).hasSuffix(" not a height"))
        let unknown = "Something new the parser says\nUsage: locker x\n  See 'locker x --help' for more information."
        XCTAssertEqual(ParserErrorText.translate(unknown, french).split(separator: "\n").map(String.init),
                       ["Something new the parser says", "Utilisation\u{202F}: locker x", "  Voir «\u{202F}locker x --help\u{202F}» pour en savoir plus."])
    }
}
