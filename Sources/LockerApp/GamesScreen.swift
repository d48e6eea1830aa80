import FoundationEssentials
import LockerKit
import TerminalUI

/// The Games tab. Logged out: a log-in / sign-up form. Logged in: your upcoming games and the
/// games near a postcode, a reminder line for today's games, and forms to create a game.
public final class GamesScreen: Screen {
    public let tab = Tab.games
    let viewModel: GamesViewModel
    /// Where `i` writes .ics files.
    let exportDirectory: String

    // Log-in / sign-up form.
    private var signingUp = false
    private var formFocus = 0
    private var nameField = TextFieldState("", maxLength: 32)
    private var passwordField = TextFieldState("", masked: true, maxLength: 128)
    private var confirmField = TextFieldState("", masked: true, maxLength: 128)

    // Lists.
    private enum Pane { case upcoming, nearby }
    private var pane = Pane.upcoming
    private var upcomingList = ListState()
    private var nearbyList = ListState()
    private var listHeight = 5
    /// Today's games as last laid out (nil when none), drawn above the lists.
    private var reminder: AttentionLine?
    private var postcodeField: TextFieldState?
    /// The reason typed when the organiser calls a game off (`x`).
    private var reasonField: (game: GameListing, field: TextFieldState)?
    private var createForm: GamesCreateForm?
    private var editForm: GamesEditForm?
    /// The game whose details are open (Enter), by id so that live changes show in it.
    private var detailID: Int64?
    /// The game waiting for y to be booked (b).
    private var bookingToConfirm: GameListing?

    public init(viewModel: GamesViewModel, exportDirectory: String) {
        self.viewModel = viewModel
        self.exportDirectory = exportDirectory
    }

    /// Typing goes to a field while one has focus; on the form's first line (and after Esc) the
    /// global keys work, so the tabs stay reachable while logged out.
    public var capturesText: Bool {
        (viewModel.user == nil && formFocus > 0) || postcodeField != nil || createForm != nil || editForm != nil || reasonField != nil
            || bookingToConfirm != nil
    }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        viewModel.observe(callback)
    }

    // MARK: Keys

    /// The screen's modes, in the order they take keys.
    private enum Mode { case roster, account, form, confirm, details, list }

    private var mode: Mode {
        if viewModel.roster != nil { return .roster }
        if viewModel.user == nil { return .account }
        if editForm != nil || createForm != nil || reasonField != nil || postcodeField != nil { return .form }
        if bookingToConfirm != nil { return .confirm }
        if detailID != nil { return .details }
        return .list
    }

    public func handle(_ key: Key) -> Bool {
        activeKeys(viewModel.localizer).handle(key)
    }

    public func keyTables(_ l: Localizer) -> [KeyTable] {
        [accountKeys(l), listKeys(l), detailKeys(l), confirmKeys(l), formKeys(l), rosterKeys(l)]
    }

    /// The table of the current mode. While a request is on its way, Esc stops waiting before
    /// anything else and the footer says only that (the log-in form keeps its own); while a line
    /// is typed above the lists (postcode, reason), the footer shows the keys of what is under it.
    public func activeKeys(_ l: Localizer) -> KeyTable {
        let mode = self.mode
        let table = keys(mode, l)
        if viewModel.busy != nil {
            let stop = stopWaiting(l)
            return table.layered(first: mode == .list ? [] : [stop], footerFrom: mode == .account ? table.bindings : [stop])
        }
        if mode == .form, editForm == nil, createForm == nil {
            return table.layered(footerFrom: keys(detailID == nil ? .list : .details, l).bindings)
        }
        return table
    }

    private func keys(_ mode: Mode, _ l: Localizer) -> KeyTable {
        switch mode {
        case .roster: return rosterKeys(l)
        case .account: return accountKeys(l)
        case .form: return formKeys(l)
        case .confirm: return confirmKeys(l)
        case .details: return detailKeys(l)
        case .list: return listKeys(l)
        }
    }

    /// Logged out: the log-in / sign-up form.
    private func accountKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "games-account", title: l.t("Account"), [
            KeyBinding([.tab, .down, .backTab, .up], "Tab ↑ ↓", help: l.t("Next or previous field; Enter logs in or signs up"),
                       footer: l.t("next field"), footerKeys: "Tab") { key in
                self.formFocus = FormRows.step(self.formFocus, key, rows: self.signingUp ? 4 : 3)
                return true
            },
            KeyBinding([.left, .right], "← →", help: l.t("On the first line of the form: log in or sign up")) { key in
                guard self.formFocus == 0 else { return false }
                self.signingUp.toggle()
                self.confirmField = TextFieldState("", masked: true, maxLength: 128)
                return true
            },
            KeyBinding([.enter], "Enter", help: l.t("Log in or sign up (on the first line: go to the username)"),
                       footer: signingUp ? l.t("sign up") : l.t("log in")) {
                self.submitAccountForm()
            },
            KeyBinding([.escape], "Esc", help: l.t("Back to the first line, where the global keys work")) { _ in
                guard self.formFocus > 0 else { return false }
                self.formFocus = 0
                return true
            },
            KeyBinding(matching: { _ in true }, "a–z 0–9", help: l.t("Type in the chosen field")) { key in
                switch self.formFocus {
                case 1: return self.nameField.handle(key)
                case 2: return self.passwordField.handle(key)
                case 3: return self.confirmField.handle(key)
                default: return false
                }
            },
        ])
    }

    private func submitAccountForm() {
        if formFocus == 0 { formFocus = 1; return }
        if signingUp {
            viewModel.signUp(name: nameField.text, password: passwordField.text, confirmation: confirmField.text)
        } else {
            viewModel.login(name: nameField.text, password: passwordField.text)
        }
        passwordField = TextFieldState("", masked: true, maxLength: 128)
        confirmField = TextFieldState("", masked: true, maxLength: 128)
        formFocus = viewModel.user == nil ? 2 : 0
    }

    /// Logged in: your games and the games near a postcode.
    private func listKeys(_ l: Localizer) -> KeyTable {
        let move = KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end], "↑ ↓ PgUp PgDn", help: l.t("Move; Home and End jump to the ends")) { key in
            var state = self.focusedList.state
            guard state.handle(key, pageSize: self.listHeight) else { return false }
            if self.pane == .upcoming { self.upcomingList = state } else { self.nearbyList = state }
            return true
        }
        let details = KeyBinding([.enter], "Enter",
                                 help: l.t("The selected game's details: organiser, time at the ground, map link, places, your waitlist position, note"),
                                 footer: l.t("details")) {
            self.detailID = self.selectedGame?.id
        }
        let postcode = KeyBinding([.character("p"), .character("/")], "p /",
                                  help: l.t("Type a postcode or a position (latitude,longitude): the 5 nearest grounds and their games"),
                                  footer: l.t("postcode"), footerKeys: "p") {
            self.postcodeField = TextFieldState(self.viewModel.searchedPlace, maxLength: 30, allowed: { $0.isASCII && ($0.isNumber || ",.-".contains($0)) })
        }
        let newGame = KeyBinding([.character("n")], "n", help: l.t("Create a game at one of the grounds found"), footer: l.t("new game")) {
            // With no grounds found yet, n asks for a postcode first.
            if self.viewModel.grounds.isEmpty {
                self.postcodeField = TextFieldState("", maxLength: 4, allowed: { $0.isASCII && $0.isNumber })
            } else {
                self.createForm = GamesCreateForm(grounds: self.viewModel.grounds, now: self.viewModel.currentTime)
            }
        }
        let switchList = KeyBinding([.tab, .backTab], "Tab Shift-Tab", help: l.t("Switch between your games and the games near the postcode"),
                                    footer: l.t("switch list"), footerKeys: "Tab") {
            self.pane = self.pane == .upcoming ? .nearby : .upcoming
        }
        let refreshOrLogOut = KeyBinding([.character("r"), .character("o")], "r o", help: l.t("Refresh; log out"),
                                         footer: l.t("log out"), footerKeys: "o") { key in
            if key == .character("r") { self.viewModel.refresh() } else { self.viewModel.logout() }
            return true
        }
        return KeyTable(id: "games", title: l.t("Games"),
                        [move, details] + gameKeys(l, details: false) + [postcode, newGame, switchList, stopWaiting(l), refreshOrLogOut])
    }

    /// Enter in the list: one game in full.
    private func detailKeys(_ l: Localizer) -> KeyTable {
        let closing: [Key] = [.escape, .enter, .character("q")]
        // Details whose game has gone close at any key.
        let close = KeyBinding(matching: { closing.contains($0) || self.detailGame == nil }, "Esc Enter q", help: l.t("Back to the list"),
                               footer: l.t("close"), footerKeys: "Esc") { _ in
            self.detailID = nil
            return true
        }
        return KeyTable(id: "games-details", title: l.t("Game details"), gameKeys(l, details: true) + [close])
    }

    /// The keys that act on one game: the selected one in the list, the open one in its details
    /// (whose footer also shows w and i).
    private func gameKeys(_ l: Localizer, details: Bool) -> [KeyBinding] {
        func key(_ c: Character, _ help: String, footer: String? = nil, _ act: @escaping (GameListing) -> Void) -> KeyBinding {
            KeyBinding([.character(c)], String(c), help: help, footer: footer) { _ in
                guard let game = details ? self.detailGame : self.selectedGame else {
                    // Details whose game has gone close; with no game selected the key goes on.
                    if details { self.detailID = nil }
                    return details
                }
                act(game)
                return true
            }
        }
        return [
            key("b", l.t("Book the selected game (the waitlist when it is full), after y to confirm"), footer: l.t("book")) { self.bookingToConfirm = $0 },
            key("c", l.t("Cancel your booking (the first player waiting gets the place)"), footer: l.t("cancel")) { self.viewModel.cancel($0) },
            key("x", l.t("Call off a game you organise, with a reason the players see")) { self.reasonField = ($0, TextFieldState("", maxLength: 200)) },
            key("e", l.t("Change the time, capacity or note of a game you organise")) { game in
                // Someone else's game: the roster says that only the organiser can.
                if game.myStatus == .organiser { self.editForm = GamesEditForm(game: game) } else { self.viewModel.showRoster(game) }
            },
            key("w", l.t("Who is going and who is waitlisted, for a game you organise"), footer: details ? l.t("who is going") : nil) {
                self.viewModel.showRoster($0)
            },
            key("i", l.t("Write the selected game as an .ics file in the data folder"), footer: details ? l.t(".ics") : nil) {
                self.viewModel.exportCalendar($0, directory: self.exportDirectory)
            },
        ]
    }

    /// b: the line above the lists asks before booking. Other keys wait for the answer.
    private func confirmKeys(_ l: Localizer) -> KeyTable {
        let keep: [Key] = [.character("n"), .character("N"), .escape]
        return KeyTable(id: "games-confirm", title: l.t("Confirming a booking"), [
            KeyBinding([.character("y"), .character("Y"), .enter], "y Enter", help: l.t("Book the game"), footer: l.t("book"), footerKeys: "y") {
                let game = self.bookingToConfirm
                self.bookingToConfirm = nil
                if let game { self.viewModel.book(game) }
            },
            KeyBinding(matching: { _ in true }, "n Esc", help: l.t("Close without changing anything"), footer: l.t("keep as is")) { key in
                if keep.contains(key) { self.bookingToConfirm = nil }
                return true
            },
        ])
    }

    /// A form (new game, change a game) or a line typed above the lists (postcode, reason): the
    /// form or field takes every key, these bindings name them.
    private func formKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "games-form", title: l.t("Filling in a form"), [
            KeyBinding([.tab, .down, .backTab, .up], "Tab ↑ ↓", help: l.t("Choose a field"), footer: l.t("next field"), footerKeys: "Tab",
                       action: typeInForm),
            KeyBinding([.enter], "Enter", help: l.t("Create the game, save the changes, search, or call the game off"),
                       footer: editForm != nil ? l.t("save") : l.t("create"), action: typeInForm),
            KeyBinding([.escape], "Esc", help: l.t("Close without changing anything"), footer: l.t("cancel"), action: typeInForm),
            KeyBinding(matching: { _ in true }, "a–z 0–9 ← → PgUp PgDn", help: l.t("Type in the chosen field"), action: typeInForm),
        ])
    }

    /// w: who is going and who waits.
    private func rosterKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "games-roster", title: l.t("Who is going"), [
            KeyBinding([.escape, .enter, .character("w"), .character("q")], "Esc Enter w q", help: l.t("Close without changing anything"),
                       footer: l.t("close"), footerKeys: "Esc") {
                self.viewModel.closeRoster()
            },
        ])
    }

    /// Esc while a request is on its way stops waiting for it; other keys go on as usual.
    private func stopWaiting(_ l: Localizer) -> KeyBinding {
        KeyBinding([.escape], "Esc", help: l.t("While the status line says a request is on its way: stop waiting"),
                   footer: viewModel.busy == nil ? nil : l.t("stop waiting")) { _ in
            guard self.viewModel.busy != nil else { return false }
            self.viewModel.cancelRequest()
            return true
        }
    }

    /// The open form or typed line takes the key: Tab and the arrows move between a form's
    /// fields, Enter does what the form is for, Esc closes it, the rest is typed.
    private func typeInForm(_ key: Key) -> Bool {
        if var form = editForm {
            switch form.handle(key) {
            case .stay: editForm = form
            case .cancel: editForm = nil
            case .submit(let changes):
                editForm = form
                if viewModel.edit(form.game, localTime: changes.localTime, capacity: changes.capacity, note: changes.note) { editForm = nil }
            }
            return true
        }
        if var form = createForm {
            switch form.handle(key) {
            case .stay: createForm = form
            case .cancel: createForm = nil
            case .submit(let request):
                createForm = form
                if viewModel.create(ground: request.ground, localTime: request.localTime, players: request.players,
                                    capacity: request.capacity, minimum: request.minimum, note: request.note) {
                    createForm = nil
                }
            }
            return true
        }
        if var reason = reasonField {
            switch key {
            case .enter:
                reasonField = nil
                viewModel.cancelGame(reason.game, reason: reason.field.text)
            case .escape: reasonField = nil
            default:
                _ = reason.field.handle(key)
                reasonField = reason
            }
            return true
        }
        if var field = postcodeField {
            switch key {
            case .enter:
                postcodeField = nil
                viewModel.search(postcode: field.text)
                pane = .nearby
            case .escape: postcodeField = nil
            default:
                _ = field.handle(key)
                postcodeField = field
            }
            return true
        }
        return false
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

    /// The game whose details are open, nil when none is or it has gone.
    private var detailGame: GameListing? { detailID.flatMap { shownGame($0) } }

    /// The game with this id as last read (your games first), or nil when it has gone.
    private func shownGame(_ id: Int64) -> GameListing? {
        viewModel.upcoming.first { $0.id == id } ?? viewModel.nearby.first { $0.id == id }
    }

    // MARK: Status

    public func status(_ l: Localizer) -> String? {
        if let busy = viewModel.busy { return busy + " " + l.t("(Esc stops waiting)") }
        if let message = viewModel.message { return message }
        guard viewModel.user != nil else { return nil }
        let list = pane == .upcoming ? viewModel.upcoming : viewModel.nearby
        let state = pane == .upcoming ? upcomingList : nearbyList
        guard list.indices.contains(state.selected) else { return nil }
        return list[state.selected].map
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
            let text = l.t("Opening the games database…")
            surface.write(text, x: rect.x + max(0, (rect.width - text.displayWidth) / 2), y: rect.y + rect.height / 2, style: Style(.muted), clip: rect)
            return
        }
        guard let user = viewModel.user else { return renderAccountForm(into: surface, rect: rect, context: context) }
        let (reminderRow, header, body, top, bottom) = panes(rect)
        // Today's games, urgent within the hour (bold; the shell rings the bell once per game).
        if let reminder, let reminderRow { AttentionBar.render(reminder, into: surface, row: reminderRow) }
        surface.write(" " + l.t("Logged in as {name}", ["name": user]), x: header.x, y: header.y, style: Style(.title, [.bold]), clip: header)
        renderList(title: l.t("Your games"), games: viewModel.upcoming, state: upcomingList, focused: pane == .upcoming,
                   empty: l.t("No games to come. Press p to find games near a postcode."), into: surface, rect: top, context: context)
        let nearTitle = viewModel.searchedPlace.isEmpty ? l.t("Games near a postcode (press p)")
            : l.t("Games at the 5 grounds nearest to {postcode}", ["postcode": viewModel.searchedPlace])
        // The grounds found, nearest first, with their distance (~ when the position is approximate).
        let groundsLine = viewModel.grounds.isEmpty ? nil : viewModel.grounds.map {
            TerminalText.inert($0.name) + " " + ($0.approximate ? "~" : "") + MeasureText.distance($0.distanceMeters, l)
        }.joined(separator: " · ")
        renderList(title: nearTitle, games: viewModel.nearby, state: nearbyList, focused: pane == .nearby,
                   empty: viewModel.searchedPlace.isEmpty ? "" : l.t("No games planned at these grounds yet. Press n to create one."),
                   header: groundsLine, into: surface, rect: bottom, context: context)
        if let reasonField {
            surface.fill(header)
            let x = surface.write(" " + l.t("Why is game {id} off?", ["id": String(reasonField.game.id)]) + " ", x: header.x, y: header.y, style: Style(.accent, [.bold]), clip: header)
            TextField().render(reasonField.field, into: surface, rect: Rect(x: x, y: header.y, width: max(1, header.maxX - x), height: 1), focused: true)
        }
        if let postcodeField {
            surface.fill(header)
            let x = surface.write(" " + l.t("Postcode or latitude,longitude:") + " ", x: header.x, y: header.y, style: Style(.accent, [.bold]), clip: header)
            TextField(placeholder: "3977").render(postcodeField, into: surface, rect: Rect(x: x, y: header.y, width: 24, height: 1), focused: true)
        }
        createForm?.render(into: surface, area: body, context: context)
        editForm?.render(into: surface, area: body, context: context)
        if let id = detailID, let game = shownGame(id) { renderDetail(game, into: surface, area: body, context: context) }
        if let game = bookingToConfirm {
            surface.fill(header)
            let question = " " + l.t("Book game {id}, {time} at {ground}? y / n", ["id": String(game.id), "time": GameTimeText.when(game, l),
                                                                                  "ground": TerminalText.inert(game.groundName)])
            surface.write(question, x: header.x, y: header.y, style: Style(.accent, [.bold]), clip: header)
        }
        if let shown = viewModel.roster { renderRoster(shown.game, shown.roster, into: surface, area: body, context: context) }
    }

    /// One game in full: the time at the ground with its zone, the ground and its map link, the
    /// organiser, the places, the user's part (and place in the waitlist), the note or reason.
    private func renderDetail(_ g: GameListing, into surface: Surface, area: Rect, context: RenderContext) {
        let l = context.localizer
        var rows: [(String, String, Style)] = [
            (l.t("When"), GameTimeText.full(g) + " · " + viewModel.relative(g.start), Style(.text, [.bold])),
            (l.t("Ground"), TerminalText.inert(g.groundName + ", " + g.suburb + " " + g.postcode), Style(.text)),
            (l.t("Map"), g.map, Style(.muted)),
            (l.t("Organiser"), GameStatusText.person(g.organiser, l), Style(.text)),
            (l.t("Places"), l.t("{going}/{capacity} going", ["going": String(g.seatsUsed), "capacity": String(g.capacity)])
                + (g.waitlisted > 0 ? " · " + l.t("{count} waiting", ["count": String(g.waitlisted)]) : "")
                + " · " + GameStatusText.status(g.status, l), Style(g.status == .cancelled ? .bad : g.status == .full ? .warn : .good)),
        ]
        if let part = GameStatusText.part(in: g, l) { rows.append((l.t("You"), part, Style(.accent))) }
        if let reason = g.cancelReason { rows.append((l.t("Cancelled"), GameStatusText.reason(reason, l), Style(.bad))) }
        if let note = g.note { rows.append((l.t("Note"), TerminalText.inert(note), Style(.text))) }
        let labelWidth = rows.map { $0.0.displayWidth }.max() ?? 0
        // As wide as the longest line (the map link, a long note) where the terminal allows.
        let widest = rows.map { labelWidth + 2 + $0.1.displayWidth }.max() ?? 0
        let box = area.centered(width: min(area.width, max(60, widest + 4)), height: min(area.height, rows.count + 2))
        surface.fill(box)
        surface.drawBox(box, title: l.t("Game {id}", ["id": String(g.id)]) + " · " + TerminalText.inert(g.groundName), style: Style(.accent))
        let inner = box.inset(dx: 2, dy: 1)
        for (index, row) in rows.enumerated() where inner.y + index < inner.maxY {
            let x = surface.write(row.0.padded(toWidth: labelWidth) + "  ", x: inner.x, y: inner.y + index, style: Style(.muted), clip: inner)
            surface.write(row.1, x: x, y: inner.y + index, style: row.2, clip: inner)
        }
    }

    /// Who is going (in booking order) and the waitlist (in the order it moves up).
    private func renderRoster(_ game: GameListing, _ roster: GameRoster, into surface: Surface, area: Rect, context: RenderContext) {
        let l = context.localizer
        let lines = [l.t("Going ({count}):", ["count": String(roster.going.count)])]
            + roster.going.map { "  " + GameStatusText.person($0.name, l) }
            + [l.t("Waitlist ({count}):", ["count": String(roster.waitlisted.count)])]
            + roster.waitlisted.enumerated().map { "  \($0.offset + 1). " + GameStatusText.person($0.element.name, l) }
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
            surface.write(" " + header, x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
            inner = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        }
        if games.isEmpty {
            surface.write(" " + empty, x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
            return
        }
        let l = context.localizer
        ListView().render(state, into: surface, rect: inner, focused: focused) { index, _ in
            let g = games[index]
            // What matters first, so a narrow terminal cuts the least useful part: when, the
            // status and your part, the places, then the ground and the note (all in details).
            let wide = inner.width >= 110
            let when = wide ? GameTimeText.when(g, relative: self.viewModel.relative(g.start), l) : GameTimeText.when(g, l)
            // Names, notes and reasons other people typed: inert, bidi overrides included.
            var spans = [Span(" #\(g.id) ", Style(.muted)), Span(when + "  ", Style(.text)),
                         Span(GameStatusText.status(g.status, l), Style(g.status == .cancelled ? .bad : g.status == .full ? .warn : .good))]
            if let part = GameStatusText.part(in: g, l) { spans.append(Span(" · " + part, Style(.accent, [.bold]))) }
            spans.append(Span("  " + l.t("{going}/{capacity} going", ["going": String(g.seatsUsed), "capacity": String(g.capacity)]), Style(.text)))
            if g.waitlisted > 0 { spans.append(Span(" · " + l.t("{count} waiting", ["count": String(g.waitlisted)]), Style(.muted))) }
            spans.append(Span("  " + TerminalText.inert(g.groundName + ", " + g.suburb), Style(.text, [.bold])))
            if let reason = g.cancelReason { spans.append(Span(" — " + GameStatusText.reason(reason, l), Style(.bad))) }
            else if let note = g.note { spans.append(Span(" — " + TerminalText.inert(note), Style(.muted))) }
            return spans
        }
    }

    private func renderAccountForm(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let box = rect.centered(width: min(rect.width, 60), height: min(rect.height, 10))
        surface.drawBox(box, title: l.t("Pickup cricket in the City of Casey"))
        let inner = box.inset(dx: 2, dy: 1)
        let labels = [l.t("Account"), l.t("Username"), l.t("Password"), l.t("Password again")]
        FormRows.render(labels, shown: signingUp ? 4 : 3, focus: formFocus, inner: inner, clip: box, into: surface, context: context) { row, field, focused in
            switch row {
            case 0: FormRows.chooser(signingUp ? l.t("sign up (new account)") : l.t("log in"), field: field, focused: focused, into: surface, context: context)
            case 1: TextField().render(nameField, into: surface, rect: field, focused: focused)
            case 2: TextField().render(passwordField, into: surface, rect: field, focused: focused)
            default: TextField().render(confirmField, into: surface, rect: field, focused: focused)
            }
        }
        let hint = signingUp ? l.t("3–32 letters, digits, . _ -; a password of 8 characters or more, typed twice.")
                             : l.t("← → on the first line switches to creating an account.")
        for (i, line) in WordWrap.wrap(hint, width: inner.width).enumerated() where inner.y + 5 + i < inner.maxY {
            surface.write(line, x: inner.x, y: inner.y + 5 + i, style: Style(.muted), clip: inner)
        }
    }
}

/// The "change game" form: date and time, capacity, note (an empty note removes it).
struct GamesEditForm {
    struct Changes { var localTime: String?; var capacity: Int?; var note: String? }
    enum Result { case stay, cancel, submit(Changes) }

    let game: GameListing
    var focus = 0
    var when: DateTimePickerState
    var capacity: TextFieldState
    var note: TextFieldState

    init(game: GameListing) {
        self.game = game
        when = DateTimePickerState(date: Date(timeIntervalSince1970: game.start))
        capacity = TextFieldState(String(game.capacity), maxLength: 2, allowed: { $0.isASCII && $0.isNumber })
        note = TextFieldState(game.note ?? "", maxLength: 500)
    }

    mutating func handle(_ key: Key) -> Result {
        switch key {
        case .escape: return .cancel
        case .tab, .down, .backTab, .up: focus = FormRows.step(focus, key, rows: 3); return .stay
        case .enter:
            let unchangedTime = when.date.map { abs($0.timeIntervalSince1970 - game.start) < 60 } ?? false
            let newCapacity = Int(capacity.text)
            return .submit(Changes(localTime: unchangedTime ? nil : when.localText, capacity: newCapacity == game.capacity ? nil : (newCapacity ?? 0),
                                   note: note.text == (game.note ?? "") ? nil : note.text))
        default:
            switch focus {
            case 0: _ = when.handle(key)
            case 1: _ = capacity.handle(key)
            default: _ = note.handle(key)
            }
            return .stay
        }
    }

    func render(into surface: Surface, area: Rect, context: RenderContext) {
        let l = context.localizer
        let box = area.centered(width: min(area.width, 72), height: min(area.height, 7))
        surface.fill(box)
        surface.drawBox(box, title: l.t("Change game {id}", ["id": String(game.id)]))
        let inner = box.inset(dx: 2, dy: 1)
        FormRows.render([l.t("Starts"), l.t("Capacity"), l.t("Note")], focus: focus, inner: inner, clip: box, into: surface, context: context) { row, field, focused in
            switch row {
            case 0: DateTimePicker().render(when, into: surface, at: Point(x: field.x, y: field.y), focused: focused)
            case 1: TextField().render(capacity, into: surface, rect: Rect(x: field.x, y: field.y, width: 4, height: 1), focused: focused)
            default: TextField().render(note, into: surface, rect: field, focused: focused)
            }
        }
        if inner.y + 4 < inner.maxY {
            surface.write(l.t("Players beyond a lower capacity go to the head of the waitlist. Enter saves, Esc cancels."),
                          x: inner.x, y: inner.y + 4, style: Style(.muted), clip: inner)
        }
    }
}

/// The "new game" form: ground (← →), date and time, players already there, capacity, minimum, note.
struct GamesCreateForm {
    struct Request { var ground: String; var localTime: String; var players: Int; var capacity: Int; var minimum: Int?; var note: String? }
    enum Result { case stay, cancel, submit(Request) }

    let grounds: [GroundListing]
    var groundIndex = 0
    var focus = 0
    var when: DateTimePickerState
    var players = TextFieldState("1", maxLength: 2, allowed: { $0.isASCII && $0.isNumber })
    var capacity = TextFieldState("22", maxLength: 2, allowed: { $0.isASCII && $0.isNumber })
    var minimum = TextFieldState("", maxLength: 2, allowed: { $0.isASCII && $0.isNumber })
    var note = TextFieldState("", maxLength: 200)

    init(grounds: [GroundListing], now: Double) {
        self.grounds = grounds
        // Tomorrow at 10:00 is a sensible first proposal.
        let tomorrow = LocalTime.dayRange(containing: now).upperBound + 10 * 3600
        when = DateTimePickerState(date: Date(timeIntervalSince1970: tomorrow))
    }

    mutating func handle(_ key: Key) -> Result {
        switch key {
        case .escape: return .cancel
        case .tab, .down, .backTab, .up: focus = FormRows.step(focus, key, rows: 6); return .stay
        case .enter:
            return .submit(Request(ground: grounds[groundIndex].id, localTime: when.localText, players: Int(players.text) ?? 0,
                                   capacity: Int(capacity.text) ?? 0, minimum: Int(minimum.text), note: note.text.isEmpty ? nil : note.text))
        default:
            switch focus {
            case 0:
                if key == .left { groundIndex = (groundIndex + grounds.count - 1) % grounds.count }
                if key == .right { groundIndex = (groundIndex + 1) % grounds.count }
            case 1: _ = when.handle(key)
            case 2: _ = players.handle(key)
            case 3: _ = capacity.handle(key)
            case 4: _ = minimum.handle(key)
            default: _ = note.handle(key)
            }
            return .stay
        }
    }

    func render(into surface: Surface, area: Rect, context: RenderContext) {
        let l = context.localizer
        let box = area.centered(width: min(area.width, 72), height: min(area.height, 10))
        surface.fill(box)
        surface.drawBox(box, title: l.t("New game"))
        let inner = box.inset(dx: 2, dy: 1)
        let labels = [l.t("Ground"), l.t("Starts"), l.t("Players there"), l.t("Capacity"), l.t("Minimum"), l.t("Note")]
        FormRows.render(labels, focus: focus, inner: inner, clip: box, into: surface, context: context) { row, field, focused in
            let short = Rect(x: field.x, y: field.y, width: 4, height: 1)
            switch row {
            case 0:
                let g = grounds[groundIndex]
                FormRows.chooser("\(g.name), \(g.suburb) · " + MeasureText.distance(g.distanceMeters, l), field: field, focused: focused,
                                 into: surface, context: context)
            case 1: DateTimePicker().render(when, into: surface, at: Point(x: field.x, y: field.y), focused: focused)
            case 2: TextField().render(players, into: surface, rect: short, focused: focused)
            case 3: TextField().render(capacity, into: surface, rect: short, focused: focused)
            case 4: TextField(placeholder: "—").render(minimum, into: surface, rect: short, focused: focused)
            default: TextField().render(note, into: surface, rect: field, focused: focused)
            }
        }
        if inner.y + 7 < inner.maxY {
            surface.write(l.t("Players there counts you. Capacity 2–50. Enter creates, Esc cancels."), x: inner.x, y: inner.y + 7, style: Style(.muted), clip: inner)
        }
    }
}

/// The rows of a form: a label column (the focused row marked with the pointer) and, right of
/// it, each row's field, drawn by the caller.
enum FormRows {
    /// `shown` rows of `labels` (all by default); the label column fits every label, so it does
    /// not move when a row comes or goes.
    static func render(_ labels: [String], shown: Int? = nil, focus: Int, inner: Rect, clip: Rect, into surface: Surface,
                       context: RenderContext, field: (_ row: Int, _ rect: Rect, _ focused: Bool) -> Void) {
        let labelWidth = (labels.map(\.displayWidth).max() ?? 10) + 2
        for (row, label) in labels.prefix(shown ?? labels.count).enumerated() where inner.y + row < inner.maxY {
            let y = inner.y + row
            let focused = row == focus
            surface.write((focused ? context.glyphs.pointer : " ") + label, x: inner.x - 1, y: y,
                          style: Style(focused ? .accent : .muted, focused ? [.bold] : []), clip: clip)
            field(row, Rect(x: inner.x + labelWidth, y: y, width: inner.maxX - inner.x - labelWidth, height: 1), focused)
        }
    }

    /// The row after `focus` for Tab and ↓, the one before for Shift-Tab and ↑, wrapping.
    static func step(_ focus: Int, _ key: Key, rows: Int) -> Int {
        (focus + (key == .tab || key == .down ? 1 : rows - 1)) % rows
    }

    /// A value chosen with ← →, shown as "◂ text ▸" ("< text >" in ASCII).
    static func chooser(_ text: String, field: Rect, focused: Bool, into surface: Surface, context: RenderContext) {
        let (left, right) = context.glyphs.ascii ? ("< ", " >") : ("◂ ", " ▸")
        surface.write(left + text + right, x: field.x, y: field.y, style: Style(focused ? .selection : .text, focused ? [.bold] : []), clip: field)
        if focused { surface.parkCursor(x: field.x, y: field.y) }
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
    fileprivate var withoutFooter: KeyBinding { KeyBinding(matching: matches, label, help: help, action: action) }
}
