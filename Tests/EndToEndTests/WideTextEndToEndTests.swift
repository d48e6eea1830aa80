import XCTest

/// Names with wide and composed characters (CJK, flags, emoji with modifiers or joiners, a
/// character made wide by a variation selector) drawn where other text was, as a user met it:
/// every screen must be what a full redraw (Ctrl-L) shows, with no letter of the text beneath
/// left in a cell and no character half drawn.
final class WideTextEndToEndTests: XCTestCase {
    func testWideAndComposedNamesDrawTheSameAsAFullRedraw() throws {
        guard let binary = LockerBinary.url else { throw XCTSkip("locker binary not built") }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("locker-e2e-wide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let csv = data.appendingPathComponent("wide.csv")
        let rows = [
            "unit_code,unit_name,unit_coefficient,professional,course_name,course_coefficient,mark,locked",
            "1,Emoji,6,false,🇫🇷🇯🇵abcdef,4,,false",
            "1,Emoji,6,false,x❤️y❤️z,4,,false",
            "1,Emoji,6,false,👨‍👩‍👧 family,4,,false",
            "1,Emoji,6,false,👍🏽 thumbs,4,,false",
            "2,Réseaux,6,false,Internet,4,,false",
            "2,Réseaux,6,false,abc中文中文中文,4,,false",
            "2,Réseaux,6,false,ab中文中文中文,4,,false",
            "2,Réseaux,6,false,a中文中文中文,5,,false",
            "3,Insertion,6,false,中文中文中文中文,5,,false",
            "3,Insertion,6,false,Economie,4,,false",
            "3,Insertion,6,false,Gestion,3,,false",
        ]
        try (rows.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        let imported = try runProcess([binary.path, "--data-dir", data.path, "grades", "import", csv.path],
                                      environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let session = try TmuxSession(arguments: ["--tab", "grades"], width: 80, height: 24, dataDirectory: data)
        try session.waitFor("Emoji")
        func checkAgainstARedraw(_ step: String) throws {
            let shown = try session.waitForStableScreen()
            try session.send("C-l")
            let redrawn = try session.waitForStableScreen()
            XCTAssertEqual(shown, redrawn, "after \(step), the screen differs from a full redraw")
        }
        try checkAgainstARedraw("the first frame")
        try session.send("w")                                     // the totals view: names one column off
        try checkAgainstARedraw("w")
        try session.send("w")
        try checkAgainstARedraw("w again")
        for step in 1...12 {
            try session.send("Down")                              // the tree scrolls under the names
            try checkAgainstARedraw("Down × \(step)")
        }
        try session.send("Home", "e")                             // a form over the emoji names
        try checkAgainstARedraw("the edit form")
        let form = try session.screen()
        XCTAssertFalse(form.contains("\u{200D}"), "no joiner left alone on the screen: \(form)")
        try session.send("Escape")
        try checkAgainstARedraw("closing the form")
    }
}
