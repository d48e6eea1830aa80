import FoundationEssentials
import LockerKit
import TerminalUI

/// The Games tab. Logged out: a log-in / sign-up form. Logged in: your upcoming games and the
/// games near a postcode, a reminder line for today's games, and forms to create a game.
public final class GamesScreen: TabScreen {
    public let tab = Tab.games
    let viewModel: GamesViewModel
    /// Where `i` writes .ics files.
    let exportDirectory: String

    private(set) var mode = GamesMode.account(GamesForms.account())
    /// The view-model's outcomes move `mode` through `GamesMode.next` (wired once, in `init`).
    private var outcomes: ObservationToken?

    // The lists' selection and scroll, kept while other modes pass over them.
    private enum Pane { case upcoming, nearby }
    private var pane = Pane.upcoming
    private var upcomingList = ListState()
    private var nearbyList = ListState()
    private var listHeight = 5
    /// Today's games as last laid out (nil when none), drawn above the lists.
    private var reminder: AttentionLine?
    /// The width the tab was last laid out at (the status line shows the map link only when
    /// it fits on one line).
    private var width = 80
    /// The map link `y` asked to copy, until the app takes it; and the line that says so.
    private var clipboard: String?
    private var notice: String?

    public init(viewModel: GamesViewModel, exportDirectory: String) {
        self.viewModel = viewModel
        self.exportDirectory = exportDirectory
        // Built once the session may already be known (the shell reads it when keys pause).
        mode = GamesMode.start(loggedIn: viewModel.user != nil, awaitingServer: viewModel.sessionPending,
                               rosterShown: viewModel.roster != nil)
        outcomes = viewModel.observeOutcomes { [weak self] outcome in
            guard let self else { return }
            // A new game accepted shows where it went: your games.
            if outcome == .formAccepted, case .create = mode { pane = .upcoming }
            mode = GamesMode.next(mode, after: outcome)
        }
    }

    /// Typing goes to a field while one has focus; on the account form's first line (and after
    /// Esc) the global keys work, so the tabs stay reachable while logged out.
    public var capturesText: Bool {
        switch mode {
        case .account(let form): return form.state.row > 0
        case .list, .details, .roster, .awaitingServer: return false
        case .create, .change, .confirm, .reason, .postcode: return true
        }
    }

    /// Quitting asks first while a form holds what was typed: a name and password on the account
    /// form (whose first line lets `q` quit), a game being made or changed, a reason, a postcode.
    public func unsavedWork(_ l: Localizer) -> String? {
        func holdsTyping(_ mode: GamesMode) -> Bool {
            switch mode {
            case .account(let form):
                return (0..<form.state.rows.count).contains { row in
                    if case .text(let field) = form.state.cell(row).input { return !field.text.isEmpty }
                    return false
                }
            case .create, .change, .reason, .postcode: return true
            case .confirm(_, _, let over), .roster(let over): return holdsTyping(over)
            case .list, .details, .awaitingServer: return false
            }
        }
        return holdsTyping(mode) ? unsavedChanges(l) : nil
    }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        viewModel.observe(callback)
    }

    // MARK: Keys

    public func handle(_ key: Key) -> Bool {
        notice = nil
        return activeKeys(viewModel.localizer).handle(key)
    }

    public func keyTables(_ l: Localizer) -> [KeyTable] {
        [accountKeys(GamesForms.account(), l), awaitingKeys(l), listKeys(l), detailKeys(l), confirmKeys(l),
         formKeys(GamesForms.account(), l, create: true), lineKeys(l), rosterKeys(l)]
    }

    /// The table of the current mode. While a request is on its way, Esc stops waiting before
    /// anything else and the footer says only that (a form keeps its own); while a line is typed
    /// above the lists or a booking is asked about, the footer shows the keys of that line.
    public func activeKeys(_ l: Localizer) -> KeyTable {
        let table = keys(mode, l)
        guard viewModel.busy != nil else { return table }
        let stop = stopWaiting(l)
        switch mode {
        case .list: return table.layered(footerFrom: [stop])
        case .account, .create, .change: return table.layered(first: [stop], footerFrom: table.bindings)
        default: return table.layered(first: [stop], footerFrom: [stop])
        }
    }

    private func keys(_ mode: GamesMode, _ l: Localizer) -> KeyTable {
        switch mode {
        case .account(let form): return accountKeys(form, l)
        case .list: return listKeys(l)
        case .details: return detailKeys(l)
        case .create(let form, _): return formKeys(form, l, create: true)
        case .change(let form, _, _): return formKeys(form, l, create: false)
        case .confirm: return confirmKeys(l)
        case .reason, .postcode: return lineKeys(l)
        case .roster: return rosterKeys(l)
        case .awaitingServer: return awaitingKeys(l)
        }
    }

    /// Logged out: the log-in / sign-up form. ← → on its first line choose between them; Esc
    /// goes back to that line, where the global keys work.
    private func accountKeys(_ form: Form, _ l: Localizer) -> KeyTable {
        var texts = GamesForms.texts(l, submit: GamesForms.signingUp(form) ? l.t("sign up") : l.t("log in"))
        texts.title = l.t("Account")
        texts.submitHelp = l.t("Log in or sign up (on the first line: go to the username)")
        texts.cancelHelp = l.t("Back to the first line, where the global keys work")
        texts.cancel = form.state.row > 0 ? l.t("first line") : ""
        let table = form.keys(id: "games-account", texts, update: updateForm, submit: { self.submitAccount(form) }, cancel: {
            self.updateForm { state in
                guard state.row > 0 else { return false }
                state.focus(row: 0)
                return true
            }
        })
        let chooser = KeyBinding([.left, .right], help: l.t("On the first line of the form: log in or sign up")) { key in
            self.updateForm { state in
                guard state.row == GamesForms.AccountRow.choice else { return false }
                _ = state.type(key)
                state.shownRows = GamesForms.signingUp(Form(state)) ? 4 : 3
                state.set(.text(GamesForms.password()), row: GamesForms.AccountRow.confirmation)
                return true
            }
        }
        return KeyTable(id: table.id, title: table.title, [chooser] + table.bindings)
    }

    /// Applies a key's change to the form the mode holds (the account form, a new game, a change).
    private func updateForm(_ change: (inout FormState) -> Bool) -> Bool {
        switch mode {
        case .account(var form):
            defer { mode = .account(form) }
            return change(&form.state)
        case .create(var form, let grounds):
            defer { mode = .create(form, grounds: grounds) }
            return change(&form.state)
        case .change(var form, let game, let over):
            defer { mode = .change(form, game: game, over: over) }
            return change(&form.state)
        default:
            return false
        }
    }

    private func submitAccount(_ form: Form) -> Bool {
        let s = form.state
        if s.row == GamesForms.AccountRow.choice {
            return updateForm { state in
                state.focus(row: GamesForms.AccountRow.name)
                return true
            }
        }
        let name = s.text(GamesForms.AccountRow.name), password = s.text(GamesForms.AccountRow.password)
        if GamesForms.signingUp(form) {
            viewModel.signUp(name: name, password: password, confirmation: s.text(GamesForms.AccountRow.confirmation))
        } else {
            viewModel.login(name: name, password: password)
        }
        return true
    }

    /// A form for a game (new, or a change): Enter sends it and the form stays open until the
    /// answer comes; Esc closes it.
    private func formKeys(_ form: Form, _ l: Localizer, create: Bool) -> KeyTable {
        form.keys(id: "games-form", GamesForms.texts(l, submit: create ? l.t("create") : l.t("save")), update: updateForm, submit: {
            switch self.mode {
            case .create(let form, let grounds): GamesForms.sendCreate(form, grounds: grounds, to: self.viewModel)
            case .change(let form, let game, _): GamesForms.sendChange(form, game: game, to: self.viewModel)
            default: return false
            }
            return true
        }, cancel: {
            self.mode = self.mode.underneath
            return true
        })
    }

    /// Logged in: your games and the games near a postcode.
    private func listKeys(_ l: Localizer) -> KeyTable {
        let move = KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end] + ViMoves.keys, help: l.t("Move; Home and End jump to the ends")) { key in
            var state = self.focusedList.state
            guard state.handle(key, pageSize: self.listHeight) else { return false }
            if self.pane == .upcoming { self.upcomingList = state } else { self.nearbyList = state }
            return true
        }
        let details = KeyBinding([.enter],
                                 help: l.t("The selected game's details: organiser, time at the ground, map link, places, your waitlist position, note"),
                                 footer: l.t("details")) { _ in
            guard let game = self.selectedGame else { return false }
            self.mode = .details(gameID: game.id)
            return true
        }.disabled { self.selectedGame == nil ? l.t("No game is selected.") : nil }
        let postcode = KeyBinding([.character("p"), .character("/")],
                                  help: l.t("Type a postcode or a position (latitude,longitude): the 5 nearest grounds and their games"),
                                  footer: l.t("postcode"), footerKeys: "p") {
            self.mode = .postcode(TextFieldState(self.viewModel.searchedPlace, maxLength: 30), over: self.mode)
        }
        let newGame = KeyBinding([.character("n")], help: l.t("Create a game at one of the grounds found"), footer: l.t("new game")) {
            // With no grounds found yet, n asks for a postcode first.
            if self.viewModel.grounds.isEmpty {
                self.mode = .postcode(TextFieldState("", maxLength: 30), over: self.mode)
            } else {
                self.mode = .create(GamesForms.create(grounds: self.viewModel.grounds, now: self.viewModel.currentTime),
                                    grounds: self.viewModel.grounds)
            }
        }
        let switchList = KeyBinding([.tab, .backTab], help: l.t("Switch between your games and the games near the postcode"),
                                    footer: l.t("switch list"), footerKeys: "Tab") {
            self.pane = self.pane == .upcoming ? .nearby : .upcoming
        }
        let refreshOrLogOut = KeyBinding([.character("r"), .character("o")], help: l.t("Refresh; log out"),
                                         footer: l.t("log out"), footerKeys: "o") { key in
            if key == .character("r") { self.viewModel.refresh() } else { self.ask(.logOut, l) }
            return true
        }
        return KeyTable(id: "games", title: l.t("Games"),
                        [move, details] + gameKeys(l, details: false) + [postcode, newGame, switchList, stopWaiting(l), refreshOrLogOut])
    }

    /// Enter in the list: one game in full. Its footer lists every key that acts on it.
    private func detailKeys(_ l: Localizer) -> KeyTable {
        let closing: [Key] = [.escape, .enter, .character("q")]
        // Details whose game has gone close at any key.
        let close = KeyBinding(matching: { closing.contains($0) || self.detailGame == nil }, names: closing, help: l.t("Back to the list"),
                               footer: l.t("close"), footerKeys: "Esc") { _ in
            self.mode = .list
            return true
        }
        let copy = KeyBinding([.character("y")], help: l.t("Copy the map link (where the terminal allows it)"), footer: l.t("copy link")) {
            guard let game = self.detailGame else { return }
            self.clipboard = game.map
            self.notice = l.t("Map link copied, where the terminal allows it: {link}", ["link": game.map])
        }
        // Closing first: the footer keeps it when space runs short.
        return KeyTable(id: "games-details", title: l.t("Game details"), [close] + gameKeys(l, details: true) + [copy])
    }

    /// The keys that act on one game: the selected one in the list, the open one in its details.
    /// A key that does not apply to that game (booking your own, changing someone else's) says
    /// why, and the footer leaves it out.
    private func gameKeys(_ l: Localizer, details: Bool) -> [KeyBinding] {
        let game = { details ? self.detailGame : self.selectedGame }
        // Keys that send a request wait for the one on its way: a question opened meanwhile
        // would be answered into nothing.
        // In the list, the keys of the organiser's own game come after the list's own keys and
        // give way first; in the details they are the box's keys.
        func key(_ c: Character, _ help: String, footer: String? = nil, organisers: Bool = false, sends: Bool = true,
                 unless refusal: @escaping (GameListing) -> String? = { _ in nil },
                 _ act: @escaping (GameListing) -> Void) -> KeyBinding {
            let binding = KeyBinding([.character(c)], help: help, footer: footer) {
                if let shown = game() { act(shown) }
            }.disabled { game().map { (sends ? self.viewModel.waitingReason : nil) ?? refusal($0) } ?? l.t("No game is selected.") }
            return organisers && !details ? binding.ranked(300) : binding
        }
        let organisesOnly = { (game: GameListing) in
            calledOff(game) ?? (game.myStatus == .organiser ? nil : GamesError.notOrganiser.message(l))
        }
        // A called-off game takes no booking, no giving up and no change.
        func calledOff(_ game: GameListing) -> String? {
            game.status == .cancelled ? l.t("Game {id} is called off: there is nothing to book, give up or change.", ["id": String(game.id)]) : nil
        }
        return [
            key("b", l.t("Book the selected game (the waitlist when it is full), after y to confirm"), footer: l.t("book"),
                unless: {
                    if let off = calledOff($0) { return off }
                    switch $0.myStatus {
                    case .organiser?: return GamesError.organiserCannotBook.message(l)
                    case .going?: return l.t("You already have a place in this game.")
                    case .waitlisted?: return l.t("You are already on this game's waitlist.")
                    case nil: return nil
                    }
                }) {
                self.ask(.book($0), l)
            },
            key("c", l.t("Cancel your booking (the first player waiting gets the place)"), footer: l.t("cancel"),
                unless: { calledOff($0) ?? ($0.myStatus == .going || $0.myStatus == .waitlisted ? nil : GamesError.notBooked.message(l)) }) {
                // Giving up a seat asks first (the first player waiting takes it); leaving the
                // waitlist does not.
                if $0.myStatus == .going { self.ask(.giveUp($0), l) } else { self.viewModel.cancel($0) }
            },
            key("x", l.t("Call off a game you organise, with a reason the players see"), footer: l.t("call off"), organisers: true, sends: false,
                unless: organisesOnly) {
                self.mode = .reason($0, TextFieldState("", maxLength: GamesLimits.reasonLength), over: self.mode)
            },
            key("e", l.t("Change the time, capacity or note of a game you organise"), footer: l.t("change"), organisers: true, sends: false,
                unless: organisesOnly) {
                self.mode = .change(GamesForms.change($0), game: $0, over: self.mode)
            },
            key("w", l.t("Who is going and who is waitlisted, for a game you organise"), footer: l.t("who is going"), organisers: true,
                unless: { $0.myStatus == .organiser ? nil : l.t("Only the organiser sees who is going.") }) {
                self.viewModel.showRoster($0)
            },
            key("i", l.t("Write the selected game as an .ics file in the data folder"), footer: l.t(".ics"), organisers: true) {
                self.viewModel.exportCalendar($0, directory: self.exportDirectory)
            },
        ]
    }

    /// Asks `question` on the status line's rows before acting. Booking, which loses nothing,
    /// has "yes" lit (Enter books); giving up a seat and logging out have "no" lit.
    private func ask(_ question: GamesQuestion, _ l: Localizer) {
        var dialog: ConfirmDialog
        switch question {
        case .book(let game) where game.seatsUsed >= game.capacity:
            // Full: the booking is a place on the waitlist, and the question says so.
            dialog = ConfirmDialog(title: l.t("Game {id} is full: join its waitlist?", ["id": String(game.id)]),
                                   message: l.t("{time} at {ground}. You are told when a place comes free.",
                                                ["time": GameTimeText.when(game, l), "ground": TerminalText.inert(game.groundName)]),
                                   yesLabel: l.t("Join the waitlist"), noLabel: l.t("Not now"))
            dialog.yesSelected = true
        case .book(let game):
            dialog = ConfirmDialog(title: l.t("Book game {id}?", ["id": String(game.id)]),
                                   message: l.t("{time} at {ground}.", ["time": GameTimeText.when(game, l), "ground": TerminalText.inert(game.groundName)]),
                                   yesLabel: l.t("Book"), noLabel: l.t("Not now"))
            dialog.yesSelected = true
        case .giveUp(let game):
            dialog = ConfirmDialog(title: l.t("Give up your place in game {id}?", ["id": String(game.id)]),
                                   message: game.waitlisted > 0 ? l.t("{time}. The first player waiting takes it.", ["time": GameTimeText.when(game, l)])
                                                                : l.t("{time}. Your place becomes free for others.", ["time": GameTimeText.when(game, l)]),
                                   yesLabel: l.t("Give up"), noLabel: l.t("Keep it"))
        case .logOut:
            dialog = ConfirmDialog(title: l.t("Log out of the games?"), message: "", yesLabel: l.t("Log out"), noLabel: l.t("Stay"))
        }
        mode = .confirm(question, dialog, over: mode)
    }

    /// While a question is asked (book, give up a seat, log out) it takes every key: y or its
    /// button does it, n or Esc keeps things as they are, ← → light the other button.
    private func confirmKeys(_ l: Localizer) -> KeyTable {
        .question(id: "games-confirm", title: l.t("Answering a question"), l, yesHelp: l.t("Yes: book the game, give up your place, or log out"),
                  yesFooter: l.t("yes"), noHelp: l.t("Close without changing anything"), noFooter: l.t("keep as is"),
                  dialog: { self.question }, store: { dialog in
            if case .confirm(let question, _, let over) = self.mode { self.mode = .confirm(question, dialog, over: over) }
        }) { answer in
            guard case .confirm(let question, _, let over) = self.mode else { return }
            self.mode = over
            guard answer == .yes else { return }
            switch question {
            case .book(let game): self.viewModel.book(game)
            case .giveUp(let game): self.viewModel.cancel(game)
            case .logOut: self.viewModel.logout()
            }
        }
    }

    /// The question asked, drawn by the shell on the status line's rows.
    public var question: ConfirmDialog? {
        if case .confirm(_, let dialog, _) = mode { return dialog }
        return nil
    }

    /// A line typed above the lists (a postcode, the reason a game is off): Enter sends it, Esc
    /// closes it, the rest is typed.
    private func lineKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "games-line", title: l.t("Typing a postcode or a reason"), [
            KeyBinding([.enter], help: l.t("Search, or call the game off"), footer: l.t("send")) {
                switch self.mode {
                case .reason(let game, let field, let over):
                    self.mode = over
                    self.viewModel.cancelGame(game, reason: field.text)
                case .postcode(let field, let over):
                    self.mode = over.underneath
                    self.viewModel.search(postcode: field.text)
                    self.pane = .nearby
                default: break
                }
            },
            KeyBinding([.escape], help: l.t("Close without changing anything"), footer: l.t("cancel")) {
                self.mode = self.mode.underneath
            },
            KeyBinding.typing(help: l.t("Type in the chosen field")) { key in
                switch self.mode {
                case .reason(let game, var field, let over):
                    _ = field.handle(key)
                    self.mode = .reason(game, field, over: over)
                case .postcode(var field, let over):
                    _ = field.handle(key)
                    self.mode = .postcode(field, over: over)
                default: break
                }
                return true
            },
        ])
    }

    /// w: who is going and who waits.
    /// While the server could not be reached at start: `r` tries again now (the live feed also
    /// tries by itself, and the tab follows when the server answers).
    private func awaitingKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "games-awaiting", title: l.t("Waiting for the games server"), [
            KeyBinding([.character("r")], help: l.t("Try to reach the games server again now"), footer: l.t("try again")) { _ in
                self.viewModel.retrySession()
                return true
            }.disabled { self.viewModel.waitingReason },
        ])
    }

    private func rosterKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "games-roster", title: l.t("Who is going"), [
            KeyBinding([.escape, .enter, .character("w"), .character("q")], help: l.t("Close without changing anything"),
                       footer: l.t("close"), footerKeys: "Esc") {
                self.viewModel.closeRoster()
            },
        ])
    }

    /// Esc while a request is on its way stops waiting for it; other keys go on as usual.
    private func stopWaiting(_ l: Localizer) -> KeyBinding {
        KeyBinding([.escape], help: l.t("While the status line says a request is on its way: stop waiting"),
                   footer: viewModel.busy == nil ? nil : l.t("stop waiting")) { _ in
            guard self.viewModel.busy != nil else { return false }
            self.viewModel.cancelRequest()
            return true
        }
    }

    /// The focused list's games and selection, the selection kept in range.
    private var focusedList: (games: [GameListing], state: ListState) {
        let games = pane == .upcoming ? viewModel.upcoming : viewModel.nearby
        var state = pane == .upcoming ? upcomingList : nearbyList
        state.setCount(games.count)
        return (games, state)
    }

    private var selectedGame: GameListing? {
        let (games, state) = focusedList
        return games.indices.contains(state.selected) ? games[state.selected] : nil
    }

    /// The game whose details are open (under whatever passes over them), nil when none is or
    /// it has gone.
    private var detailGame: GameListing? {
        guard case .details(let id) = mode.underneath else { return nil }
        return shownGame(id)
    }

    /// The game with this id as last read (your games first), or nil when it has gone.
    private func shownGame(_ id: Int64) -> GameListing? {
        viewModel.upcoming.first { $0.id == id } ?? viewModel.nearby.first { $0.id == id }
    }

    // MARK: Status

    /// The status line: a question being asked (where the eye is), a request on its way, the
    /// last outcome, or the selected game's map link.
    public func takeEffects() -> ScreenEffects {
        defer { clipboard = nil }
        return ScreenEffects(clipboard: clipboard)
    }

    public var messageExpiry: Date? { viewModel.messageExpiry }

    public func status(_ l: Localizer) -> String? {
        if let notice { return notice }
        // A message that came while a request is on its way (a refusal, a live change) is newer.
        if let message = viewModel.message { return message }
        if let busy = viewModel.busy { return busy + " " + l.t("(Esc stops waiting)") }
        guard viewModel.user != nil, case .list = mode.underneath, let map = selectedGame?.map else { return nil }
        // The link only when it fits on one line (Enter shows it whole; y copies it there).
        return map.count + 6 <= width ? map : nil
    }

    // MARK: Drawing

    /// The logged-in view's rows: today's games (when there are any), the "logged in" line,
    /// then the body: your games above and the games near a place below, half each.
    private func panes(_ rect: Rect) -> (reminder: Rect?, header: Rect, body: Rect, top: Rect, bottom: Rect) {
        var area = rect
        var reminderRow: Rect?
        if reminder != nil { (reminderRow, area) = area.splitTop(1) }
        let (header, body) = area.splitTop(1)
        let (top, bottom) = body.splitTop(max(3, body.height / 2))
        return (reminderRow, header, body, top, bottom)
    }

    public func layout(_ area: Rect, context: RenderContext) {
        width = area.width
        reminder = viewModel.attention()
        listHeight = max(1, panes(area).top.height - 2)
        upcomingList.setCount(viewModel.upcoming.count)
        nearbyList.setCount(viewModel.nearby.count)
        upcomingList.scrollToSelection(height: listHeight)
        nearbyList.scrollToSelection(height: listHeight)
    }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard viewModel.sessionKnown else {
            let text = l.t("Reading your games…")
            surface.write(text, x: rect.x + max(0, (rect.width - text.displayWidth) / 2), y: rect.y + rect.height / 2, style: Style(.muted), clip: rect)
            return
        }
        if case .awaitingServer = mode { return renderAwaitingServer(into: surface, rect: rect, context: context) }
        if case .account(let form) = mode { return renderAccountForm(form, into: surface, rect: rect, context: context) }
        guard let user = viewModel.user else { return }
        let (reminderRow, header, body, top, bottom) = panes(rect)
        // Today's games, urgent within the hour (bold; the shell rings the bell once per game).
        if let reminder, let reminderRow { AttentionBar.render(reminder, into: surface, row: reminderRow) }
        renderWhere(user, into: surface, row: header, context: context)
        renderList(title: listTitle(l.t("Your games"), viewModel.upcoming, width: top.width, l), games: viewModel.upcoming, state: upcomingList, focused: pane == .upcoming,
                   empty: l.t("No games to come. Press p to find games near a postcode."), into: surface, rect: top, context: context)
        let nearTitle = viewModel.searchedPlace.isEmpty ? l.t("Games near a postcode (press p)")
            : l.t("Games at the 5 grounds nearest to {postcode}", ["postcode": viewModel.searchedPlace])
        // The grounds found, nearest first, with their distance (~ when the position is
        // approximate, which the line then says).
        let groundsLine = viewModel.grounds.isEmpty ? nil : viewModel.grounds.map {
            TerminalText.inert($0.name) + " " + ($0.approximate ? "~" : "") + MeasureText.distance($0.distanceMeters, l)
        }.joined(separator: " · ") + (viewModel.grounds.contains(where: \.approximate) ? "  (" + l.t("~ position approximate") + ")" : "")
        renderList(title: listTitle(nearTitle, viewModel.nearby, width: bottom.width, l), games: viewModel.nearby, state: nearbyList, focused: pane == .nearby,
                   empty: viewModel.searchedPlace.isEmpty ? "" : l.t("No games planned at these grounds yet. Press n to create one."),
                   header: groundsLine, into: surface, rect: bottom, context: context)
        if case .details(let id) = mode.underneath, let game = shownGame(id) { renderDetail(game, into: surface, area: body, context: context) }
        switch mode {
        case .reason(let game, let field, _):
            typedLine(l.t("Why is game {id} off?", ["id": String(game.id)]), field, placeholder: "", into: surface, row: header)
        case .postcode(let field, _):
            typedLine(l.t("Postcode or latitude,longitude:"), field, placeholder: "3977", into: surface, row: header)
        case .create(let form, let grounds):
            GamesForms.render(form, look: GamesForms.createLook(form, grounds: grounds, now: viewModel.currentTime, l), title: l.t("New game"),
                              hint: l.t("Players there counts you. Capacity 2–50. Enter creates, Esc cancels."), into: surface, area: body)
        case .change(let form, let game, _):
            GamesForms.render(form, look: GamesForms.changeLook(form, game: game, now: viewModel.currentTime, l), title: l.t("Change game {id}", ["id": String(game.id)]),
                              hint: l.t("Players beyond a lower capacity go to the head of the waitlist. Enter saves, Esc cancels."),
                              into: surface, area: body)
        case .roster:
            if let shown = viewModel.roster { renderRoster(shown.game, shown.roster, into: surface, area: body, context: context) }
        default: break
        }
    }

    /// Who is logged in and where the games are (a server's address, or this computer's file);
    /// while the server cannot be reached, since when (the live feed keeps trying).
    private func renderWhere(_ user: String, into surface: Surface, row: Rect, context: RenderContext) {
        let l = context.localizer
        let ellipsis = context.glyphs.ellipsis
        var x = surface.write((" " + l.t("Logged in as {name}", ["name": TerminalText.inert(user)])).truncated(toWidth: row.width, ellipsis: ellipsis),
                              x: row.x, y: row.y, style: Style(.title, [.bold]), clip: row)
        guard viewModel.storeKnown, row.maxX - x > 3 else { return }
        let place = viewModel.server.map { TerminalText.inert(GamesScreen.host(of: $0)) } ?? l.t("the games file on this computer")
        x = surface.write(" · ", x: x, y: row.y, style: Style(.muted), clip: row)
        // What does not fit ends with an ellipsis, never mid-word without a sign.
        let room = max(0, row.maxX - x)
        if let since = viewModel.unreachableSince {
            let time = String(LocalTime.minutes(Date(timeIntervalSince1970: since)).suffix(5))
            surface.write(l.t("{server} unreachable since {time} — retrying", ["server": place, "time": time]).truncated(toWidth: room, ellipsis: ellipsis),
                          x: x, y: row.y, style: Style(.bad, [.bold]), clip: row)
        } else {
            surface.write(l.t("on {place}", ["place": place]).truncated(toWidth: room, ellipsis: ellipsis), x: x, y: row.y, style: Style(.muted), clip: row)
        }
    }

    /// The server away at start: where the games are, since when it cannot be reached, and that
    /// the session is kept while Locker keeps trying.
    private func renderAwaitingServer(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let place = viewModel.server.map { TerminalText.inert(GamesScreen.host(of: $0)) } ?? l.t("The games server")
        let since = viewModel.unreachableSince.map { String(LocalTime.minutes(Date(timeIntervalSince1970: $0)).suffix(5)) } ?? ""
        let lines = [l.t("{server} unreachable since {time} — retrying", ["server": place, "time": since]),
                     l.t("You stay logged in: your games show as soon as the server answers (r tries now).")]
        let width = max(10, min(rect.width - 4, 72))
        let wrapped = lines.flatMap { WordWrap.wrap($0, width: width) }
        var y = rect.y + max(0, (rect.height - wrapped.count) / 2)
        for (index, line) in wrapped.enumerated() {
            let style = index < WordWrap.wrap(lines[0], width: width).count ? Style(.bad, [.bold]) : Style(.muted)
            surface.write(line, x: rect.x + max(0, (rect.width - line.displayWidth) / 2), y: y, style: style, clip: rect)
            y += 1
        }
    }

    /// "https://games.example.org:8787/" → "games.example.org:8787".
    static func host(of address: String) -> String {
        let parts = address.split(separator: "/", omittingEmptySubsequences: true)
        // "https:" then the host; an address without a scheme starts with the host.
        let host = address.contains("://") && parts.count > 1 ? parts[1] : parts.first ?? Substring(address)
        return String(host)
    }

    /// A line typed above the lists, over the "logged in" line.
    private func typedLine(_ prompt: String, _ field: TextFieldState, placeholder: String, into surface: Surface, row: Rect) {
        surface.fill(row)
        let x = surface.write(" " + prompt + " ", x: row.x, y: row.y, style: Style(.accent, [.bold]), clip: row)
        TextField(placeholder: placeholder).render(field, into: surface, rect: Rect(x: x, y: row.y, width: max(1, row.maxX - x), height: 1), focused: true)
    }

    /// One game in full: the time at the ground with its zone, the ground and its map link, the
    /// organiser, the places, the user's part (and place in the waitlist), the note or reason.
    private func renderDetail(_ g: GameListing, into surface: Surface, area: Rect, context: RenderContext) {
        let l = context.localizer
        var rows: [(String, String, Style)] = [
            (l.t("When"), GameTimeText.full(g) + " · " + viewModel.relative(g.start), Style(.text, [.bold])),
            (l.t("Ground"), TerminalText.inert(g.groundName + ", " + g.suburb + " " + g.postcode), Style(.text)),
            (l.t("Map"), g.map, Style(.muted)),
        ]
        if g.approximate == true { rows.append(("", l.t("(approximate: the suburb's centre)"), Style(.muted))) }
        rows += [
            (l.t("Organiser"), GameStatusText.person(g.organiser, l), Style(.text)),
            (l.t("Places"), l.t("{going}/{capacity} going", ["going": String(g.seatsUsed), "capacity": String(g.capacity)])
                + (g.waitlisted > 0 ? " · " + l.t("{count} waiting", ["count": String(g.waitlisted)]) : "")
                + " · " + GameStatusText.status(g.status, l), Style(g.status == .cancelled ? .bad : g.status == .full ? .warn : .good)),
        ]
        if let part = GameStatusText.part(in: g, l) { rows.append((l.t("You"), part, Style(.accent))) }
        if let reason = g.cancelReason { rows.append((l.t("Cancelled"), GameStatusText.reason(reason, l), Style(.bad))) }
        if let note = g.note { rows.append((l.t("Note"), TerminalText.inert(note), Style(.text))) }
        let labelWidth = rows.map { $0.0.displayWidth }.max() ?? 0
        // As wide as the longest line (the map link, a long note) where the terminal allows;
        // what does not fit wraps (the link whole, cut anywhere, so no character is lost).
        let widest = rows.map { labelWidth + 2 + $0.1.displayWidth }.max() ?? 0
        let width = min(area.width, max(60, widest + 4))
        let valueWidth = max(10, width - 4 - labelWidth - 2)
        var lines: [(label: String, text: String, style: Style, link: Bool)] = []
        for row in rows {
            // WordWrap cuts a word longer than the line (the link) anywhere, losing nothing.
            for (i, piece) in WordWrap.wrap(row.1, width: valueWidth).enumerated() { lines.append((i == 0 ? row.0 : "", piece, row.2, row.1 == g.map)) }
        }
        let box = area.centered(width: width, height: min(area.height, lines.count + 2))
        surface.fill(box)
        surface.drawBox(box, title: l.t("Game {id}", ["id": String(g.id)]) + " · " + TerminalText.inert(g.groundName), style: Style(.accent))
        let inner = box.inset(dx: 2, dy: 1)
        for (index, line) in lines.enumerated() where inner.y + index < inner.maxY {
            let y = inner.y + index
            let x = surface.write(line.label.padded(toWidth: labelWidth) + "  ", x: inner.x, y: y, style: Style(.muted), clip: inner)
            surface.write(line.text, x: x, y: y, style: line.style, clip: inner)
            // Each piece of the map link opens the whole link where the terminal allows (OSC 8).
            if line.link { surface.hyperlinks.append(Hyperlink(x: x, y: y, text: line.text, url: g.map)) }
        }
    }

    /// Entries (`a` + " · " + `b` …) packed into lines of at most `width` columns, never
    /// breaking inside an entry (a ground and its distance stay together).
    static func pack(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for entry in text.components(separatedBy: " · ") {
            let joined = current.isEmpty ? entry : current + " · " + entry
            if joined.displayWidth <= width || current.isEmpty { current = joined } else { lines.append(current); current = entry }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Who is going (in booking order) and the waitlist (in the order it moves up).
    private func renderRoster(_ game: GameListing, _ roster: GameRoster, into surface: Surface, area: Rect, context: RenderContext) {
        let l = context.localizer
        // The game as now listed, so the count matches its row.
        let text = GameStatusText.roster(roster, of: shownGame(game.id) ?? game, l)
        let lines = text.going + text.waitlist
        let box = area.centered(width: min(area.width, 50), height: min(area.height, lines.count + 2))
        surface.fill(box)
        surface.drawBox(box, title: l.t("Game {id}", ["id": String(game.id)]) + " · " + TerminalText.inert(game.groundName))
        let inner = box.inset(dx: 2, dy: 1)
        for (row, line) in lines.enumerated() where inner.y + row < inner.maxY {
            let heading = !line.hasPrefix("  ")
            surface.write(line, x: inner.x, y: inner.y + row, style: Style(heading ? .accent : .text, heading ? [.bold] : []), clip: inner)
        }
    }

    private func renderList(title: String, games: [GameListing], state: ListState, focused: Bool, empty: String,
                            header: String? = nil, into surface: Surface, rect: Rect, context: RenderContext) {
        guard rect.height >= 3 else { return }
        surface.drawBox(rect, title: title, style: Style(focused ? .accent : .border))
        var inner = rect.inset(dx: 1, dy: 1)
        if let header, inner.height > 1 {
            // Every ground found stays in view: the line wraps (three rows at most) between grounds.
            let lines = Self.pack(header, width: max(10, inner.width - 1)).prefix(max(1, min(3, inner.height - 1)))
            for (i, line) in lines.enumerated() {
                surface.write(" " + line, x: inner.x, y: inner.y + i, style: Style(.muted), clip: inner)
            }
            inner = Rect(x: inner.x, y: inner.y + lines.count, width: inner.width, height: inner.height - lines.count)
        }
        if games.isEmpty {
            surface.write(" " + empty, x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
            return
        }
        let l = context.localizer
        let wide = inner.width >= 110
        ListView().render(state, into: surface, rect: inner, focused: focused) { index, _ in
            let g = games[index]
            let status = Span(GameStatusText.status(g.status, l), Style(g.status == .cancelled ? .bad : g.status == .full ? .warn : .good))
            let places = l.t("{going}/{capacity} going", ["going": String(g.seatsUsed), "capacity": String(g.capacity)])
            // Names, notes and reasons other people typed: inert, bidi overrides included.
            var spans: [Span]
            if wide {
                spans = [Span(" #\(g.id) ", Style(.muted)), Span(GameTimeText.when(g, relative: self.viewModel.relative(g.start), l) + "  ", Style(.text)), status]
                if let part = GameStatusText.part(in: g, l) { spans.append(Span(" · " + part, Style(.accent, [.bold]))) }
                spans.append(Span("  " + places, Style(.text)))
                if g.waitlisted > 0 { spans.append(Span(" · " + l.t("{count} waiting", ["count": String(g.waitlisted)]), Style(.muted))) }
                spans.append(Span("  " + TerminalText.inert(g.groundName + ", " + g.suburb), Style(.text, [.bold])))
            } else {
                // Narrow: the facts first — when (the zone is in the box's title), the places,
                // the ground — then the status and your part, cut first.
                spans = [Span(" #\(g.id) ", Style(.muted)), Span(GameTimeText.clockAtGround(g) + "  ", Style(.text)),
                         Span(places + "  ", Style(.text)), Span(TerminalText.inert(g.groundName) + "  ", Style(.text, [.bold])), status]
                if let part = GameStatusText.part(in: g, l) { spans.append(Span(" · " + part, Style(.accent, [.bold]))) }
            }
            if let reason = g.cancelReason { spans.append(Span(" — " + GameStatusText.reason(reason, l), Style(.bad))) }
            else if let note = g.note { spans.append(Span(" — " + TerminalText.inert(note), Style(.muted))) }
            return spans
        }
    }

    /// A list's title; in a narrow list, whose rows leave the zone out, the title names it
    /// ("Your games · Melbourne time") when the user's own clock differs.
    private func listTitle(_ title: String, _ games: [GameListing], width: Int, _ l: Localizer) -> String {
        guard width < 112 else { return title }
        let zones = Set(games.filter { GameTimeText.differsFromUser($0) }.map(\.timeZone))
        guard !zones.isEmpty else { return title }
        return title + " · " + l.t("{zone} time", ["zone": zones.sorted().map(GameTimeText.zoneName).joined(separator: ", ")])
    }

    private func renderAccountForm(_ form: Form, into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let hint = GamesForms.signingUp(form) ? l.t("3–32 letters, digits, . _ -; a password of 8 characters or more, typed twice.")
                                              : l.t("← → on the first line switches to creating an account.")
        GamesForms.render(form, look: GamesForms.accountLook(form, l), title: l.t("Pickup cricket in the City of Casey"), hint: hint,
                          width: 60, into: surface, area: rect)
    }
}

extension KeyTable {
    /// This table with `first` before its bindings and the footer of `shown` instead of its own:
    /// every binding still acts, only what the footer shows changes.
    fileprivate func layered(first: [KeyBinding] = [], footerFrom shown: [KeyBinding]) -> KeyTable {
        let footer = shown.compactMap { binding in
            binding.footer.map { KeyBinding.described(binding.label, help: binding.help, footer: $0.label, footerKeys: $0.key) }
        }
        return KeyTable(id: id, title: title, (first + bindings).map(\.withoutFooter) + footer)
    }
}

extension KeyBinding {
    /// The same binding, not shown in the footer.
    fileprivate var withoutFooter: KeyBinding {
        var binding = KeyBinding(matching: matches, names: keys, label: label, help: help, action: action)
        binding.disabledReason = disabledReason
        return binding
    }
}
