import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

/// `GamesMode.next(_:after:)`: where the Games tab goes after each answer, for every mode the tab
/// can be in and every outcome the view-model emits.
final class GamesModeTests: XCTestCase {
    private static func game(_ id: Int64) -> GameListing {
        GameListing(id: id, ground: "casey-fields", groundName: "Casey Fields", suburb: "Cranbourne East", startsAt: "2099-01-01T10:00:00Z",
                    capacity: 22, players: 1, going: 3, waitlisted: 0, status: .open, myStatus: .organiser, organiser: "sam",
                    note: nil, cancelReason: nil, map: "https://www.openstreetmap.org/")
    }

    // The modes of the table: the game they are about is game 5.
    private static let five = game(5)
    private static let typed: Form = {
        var form = GamesForms.account()
        form.state.focus(row: GamesForms.AccountRow.name)
        _ = form.state.type(.character("s"))
        return form
    }()
    private static let grounds = [GroundListing(id: "casey-fields", name: "Casey Fields", suburb: "Cranbourne East", postcode: "3977",
                                                approximate: false, distanceMeters: 900)]
    private static let newGame = GamesForms.create(grounds: grounds, now: 4_000_000_000)
    private static let changing = GamesForms.change(five)
    private static let dialog = ConfirmDialog(title: "Book game 5?", message: "", yesLabel: "Book", noLabel: "Not now")
    private static let field = TextFieldState("Rain", maxLength: 200)

    private static let account = GamesMode.account(typed)
    private static let awaiting = GamesMode.awaitingServer
    private static let list = GamesMode.list
    private static let details = GamesMode.details(gameID: 5)
    private static let create = GamesMode.create(newGame, grounds: grounds)
    private static let change = GamesMode.change(changing, game: five, over: details)
    private static let book = GamesMode.confirm(.book(five), dialog, over: details)
    private static let logOut = GamesMode.confirm(.logOut, dialog, over: list)
    private static let reason = GamesMode.reason(five, field, over: details)
    private static let postcode = GamesMode.postcode(field, over: details)
    private static let roster = GamesMode.roster(over: details)

    private static let modes = [account, awaiting, list, details, create, change, book, logOut, reason, postcode, roster]
    private static let names = ["account", "awaiting", "list", "details", "create", "change", "book", "logOut", "reason", "postcode", "roster"]

    private static func focused(_ mode: GamesMode, row: Int) -> GamesMode {
        switch mode {
        case .account(var form): form.state.focus(row: row); return .account(form)
        case .create(var form, let grounds): form.state.focus(row: row); return .create(form, grounds: grounds)
        case .change(var form, let game, let over): form.state.focus(row: row); return .change(form, game: game, over: over)
        default: return mode
        }
    }

    /// Each outcome, then what each mode above becomes after it (in the order of `modes`).
    private static let table: [(GamesOutcome, [GamesMode])] = {
        let fresh = GamesMode.account(GamesForms.account())
        return [
            (.sessionRead(loggedIn: true), Array(repeating: list, count: modes.count)),
            (.loggedIn, Array(repeating: list, count: modes.count)),
            (.sessionRead(loggedIn: false), [account] + Array(repeating: fresh, count: modes.count - 1)),
            (.loggedOut, Array(repeating: fresh, count: modes.count)),
            (.serverAwaited, Array(repeating: awaiting, count: modes.count)),
            (.formAccepted, [account, awaiting, list, details, list, details, book, logOut, reason, postcode, roster]),
            (.formRefused(.badCapacity),
             [focused(account, row: GamesForms.AccountRow.password), awaiting, list, details,
              focused(create, row: GamesForms.CreateRow.capacity), focused(change, row: GamesForms.ChangeRow.capacity),
              book, logOut, reason, postcode, roster]),
            (.formRefused(.usernameTaken),
             [focused(account, row: GamesForms.AccountRow.name), awaiting, list, details,
              focused(create, row: GamesForms.CreateRow.starts), focused(change, row: GamesForms.ChangeRow.starts),
              book, logOut, reason, postcode, roster]),
            (.rosterOpened, [.roster(over: account), .roster(over: awaiting), .roster(over: list), .roster(over: details),
                             .roster(over: create), .roster(over: change), .roster(over: book), .roster(over: logOut),
                             .roster(over: reason), .roster(over: postcode), roster]),
            (.rosterClosed, [account, awaiting, list, details, create, change, book, logOut, reason, postcode, details]),
            // Game 5 gone: everything open on it closes, down to the list.
            (.gameGone(5), [account, awaiting, list, list, create, list, list, .confirm(.logOut, dialog, over: list), list,
                            .postcode(field, over: list), .roster(over: list)]),
            // Another game gone: nothing changes.
            (.gameGone(9), modes),
        ]
    }()

    func testEveryModeAfterEveryOutcome() {
        for (outcome, expected) in Self.table {
            XCTAssertEqual(expected.count, Self.modes.count, "\(outcome): one row per mode")
            for (index, mode) in Self.modes.enumerated() {
                XCTAssertEqual(GamesMode.next(mode, after: outcome), expected[index], "\(Self.names[index]) after \(outcome)")
            }
        }
    }

    /// Every kind of outcome has a row: a new kind does not compile here until it is sorted into
    /// one of these, and then the table needs its row.
    func testTheTableHasEveryKindOfOutcome() {
        enum Kind: CaseIterable { case sessionRead, serverAwaited, loggedIn, loggedOut, formAccepted, formRefused, rosterOpened, rosterClosed, gameGone }
        func kind(_ outcome: GamesOutcome) -> Kind {
            switch outcome {
            case .sessionRead: return .sessionRead
            case .serverAwaited: return .serverAwaited
            case .loggedIn: return .loggedIn
            case .loggedOut: return .loggedOut
            case .formAccepted: return .formAccepted
            case .formRefused: return .formRefused
            case .rosterOpened: return .rosterOpened
            case .rosterClosed: return .rosterClosed
            case .gameGone: return .gameGone
            }
        }
        XCTAssertEqual(Set(Self.table.map { kind($0.0) }), Set(Kind.allCases))
    }

    func testATabOpenedLateStartsWhereTheViewModelIs() {
        XCTAssertEqual(GamesMode.start(loggedIn: true, awaitingServer: false, rosterShown: false), .list)
        XCTAssertEqual(GamesMode.start(loggedIn: true, awaitingServer: false, rosterShown: true), .roster(over: .list))
        XCTAssertEqual(GamesMode.start(loggedIn: false, awaitingServer: true, rosterShown: false), .awaitingServer)
        XCTAssertEqual(GamesMode.start(loggedIn: false, awaitingServer: false, rosterShown: false), .account(GamesForms.account()))
    }
}
