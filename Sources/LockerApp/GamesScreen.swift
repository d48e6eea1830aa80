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

    /// The session is read once keys pause after the tab is first shown (a child process), so
    /// switching to the tab stays instant.
    public var hasPendingWork: Bool { !viewModel.started }
    public func flushPendingWork() { viewModel.start() }

    // MARK: Keys

    public func handle(_ key: Key) -> Bool {
        viewModel.start()
        // Esc while a request is in flight stops waiting for it; other keys go on as usual.
        if viewModel.busy != nil, key == .escape {
            viewModel.cancelRequest()
            return true
        }
        if viewModel.roster != nil {
            if key == .escape || key == .enter || key == .character("w") || key == .character("q") { viewModel.closeRoster(); return true }
            return false
        }
        if viewModel.user == nil { return handleAccountForm(key) }
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
        if let game = bookingToConfirm {
            switch key {
            case .character("y"), .character("Y"), .enter:
                bookingToConfirm = nil
                viewModel.book(game)
            case .character("n"), .character("N"), .escape:
                bookingToConfirm = nil
            default: break
            }
            return true
        }
        if let id = detailID {
            guard let game = shownGame(id) else { detailID = nil; return true }
            switch key {
            case .escape, .enter, .character("q"): detailID = nil
            default: return handleGameKey(key, game)
            }
            return true
        }
        let list = pane == .upcoming ? viewModel.upcoming : viewModel.nearby
        var state = pane == .upcoming ? upcomingList : nearbyList
        state.setCount(list.count)
        if state.handle(key, pageSize: listHeight) {
            if pane == .upcoming { upcomingList = state } else { nearbyList = state }
            return true
        }
        let selected = list.indices.contains(state.selected) ? list[state.selected] : nil
        switch key {
        case .tab, .backTab: pane = pane == .upcoming ? .nearby : .upcoming
        case .character("p"), .character("/"):
            postcodeField = TextFieldState(viewModel.postcode, maxLength: 30, allowed: { $0.isASCII && ($0.isNumber || ",.-".contains($0)) })
        case .enter:
            detailID = selected?.id
        case .character("n"):
            guard !viewModel.grounds.isEmpty else {
                postcodeField = TextFieldState("", maxLength: 4, allowed: { $0.isASCII && $0.isNumber })
                return true
            }
            createForm = GamesCreateForm(grounds: viewModel.grounds, now: viewModel.currentTime)
        case .character("r"): viewModel.refresh()
        case .character("o"): viewModel.logout()
        default:
            guard let selected else { return false }
            return handleGameKey(key, selected)
        }
        return true
    }

    /// The game with this id as last read (your games first), or nil when it has gone.
    private func shownGame(_ id: Int64) -> GameListing? {
        viewModel.upcoming.first { $0.id == id } ?? viewModel.nearby.first { $0.id == id }
    }

    /// The keys that act on one game, in the list and in its details.
    private func handleGameKey(_ key: Key, _ selected: GameListing) -> Bool {
        switch key {
        case .character("b"):
            bookingToConfirm = selected
        case .character("c"):
            viewModel.cancel(selected)
        case .character("w"):
            viewModel.showRoster(selected)
        case .character("e"):
            guard selected.myStatus == .organiser else {
                viewModel.showRoster(selected)   // says that only the organiser can
                return true
            }
            editForm = GamesEditForm(game: selected)
        case .character("x"):
            reasonField = (selected, TextFieldState("", maxLength: 200))
        case .character("i"):
            viewModel.exportCalendar(selected, directory: exportDirectory)
        default: return false
        }
        return true
    }

    private func handleAccountForm(_ key: Key) -> Bool {
        let count = signingUp ? 4 : 3
        switch key {
        case .tab, .down: formFocus = (formFocus + 1) % count
        case .backTab, .up: formFocus = (formFocus + count - 1) % count
        case .left, .right where formFocus == 0:
            signingUp.toggle()
            confirmField = TextFieldState("", masked: true, maxLength: 128)
        case .enter:
            if formFocus == 0 { formFocus = 1; return true }
            if signingUp {
                viewModel.signUp(name: nameField.text, password: passwordField.text, confirmation: confirmField.text)
            } else {
                viewModel.login(name: nameField.text, password: passwordField.text)
            }
            passwordField = TextFieldState("", masked: true, maxLength: 128)
            confirmField = TextFieldState("", masked: true, maxLength: 128)
            formFocus = viewModel.user == nil ? 2 : 0
        case .escape:
            guard formFocus > 0 else { return false }
            formFocus = 0
        default:
            switch formFocus {
            case 1: return nameField.handle(key)
            case 2: return passwordField.handle(key)
            case 3: return confirmField.handle(key)
            default: return false
            }
        }
        return true
    }

    // MARK: Hints

    public func footerHints(_ l: Localizer) -> [KeyHint] {
        if viewModel.user == nil { return [KeyHint("Tab", l.t("next field")), KeyHint("Enter", signingUp ? l.t("sign up") : l.t("log in"))] }
        if viewModel.busy != nil { return [KeyHint("Esc", l.t("stop waiting"))] }
        if viewModel.roster != nil { return [KeyHint("Esc", l.t("close"))] }
        if createForm != nil { return [KeyHint("Tab", l.t("next field")), KeyHint("Enter", l.t("create")), KeyHint("Esc", l.t("cancel"))] }
        if editForm != nil { return [KeyHint("Tab", l.t("next field")), KeyHint("Enter", l.t("save")), KeyHint("Esc", l.t("cancel"))] }
        if bookingToConfirm != nil { return [KeyHint("y", l.t("book")), KeyHint("n Esc", l.t("keep as is"))] }
        if detailID != nil {
            return [KeyHint("b", l.t("book")), KeyHint("c", l.t("cancel")), KeyHint("w", l.t("who is going")), KeyHint("i", l.t(".ics")),
                    KeyHint("Esc", l.t("close"))]
        }
        return [KeyHint("Enter", l.t("details")), KeyHint("b", l.t("book")), KeyHint("c", l.t("cancel")), KeyHint("p", l.t("postcode")),
                KeyHint("n", l.t("new game")), KeyHint("Tab", l.t("switch list")), KeyHint("o", l.t("log out"))]
    }

    public func helpSections(_ l: Localizer) -> [HelpSection] {
        [HelpSection(title: l.t("Games"), hints: [
            KeyHint("← →", l.t("On the first line of the form: log in or sign up")),
            KeyHint("Tab ↑ ↓", l.t("Next or previous field; Enter logs in or signs up")),
            KeyHint("p /", l.t("Type a postcode or a position (latitude,longitude): the 5 nearest grounds and their games")),
            KeyHint("Tab", l.t("Switch between your games and the games near the postcode")),
            KeyHint("Enter", l.t("The selected game's details: organiser, time at the ground, map link, places, your waitlist position, note")),
            KeyHint("b", l.t("Book the selected game (the waitlist when it is full), after y to confirm")),
            KeyHint("c", l.t("Cancel your booking (the first player waiting gets the place)")),
            KeyHint("n", l.t("Create a game at one of the grounds found")),
            KeyHint("x", l.t("Call off a game you organise, with a reason the players see")),
            KeyHint("e", l.t("Change the time, capacity or note of a game you organise")),
            KeyHint("w", l.t("Who is going and who is waitlisted, for a game you organise")),
            KeyHint("Esc", l.t("While the status line says a request is on its way: stop waiting")),
            KeyHint("i", l.t("Write the selected game as an .ics file in the data folder")),
            KeyHint("r o", l.t("Refresh; log out")),
        ])]
    }

    public func status(_ l: Localizer) -> String? {
        if let busy = viewModel.busy { return busy + " " + l.t("(Esc stops waiting)") }
        if let message = viewModel.message { return message.text }
        guard viewModel.user != nil else { return nil }
        let list = pane == .upcoming ? viewModel.upcoming : viewModel.nearby
        let state = pane == .upcoming ? upcomingList : nearbyList
        guard list.indices.contains(state.selected) else { return nil }
        return list[state.selected].map
    }

    // MARK: Drawing

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard viewModel.sessionKnown else {
            let text = l.t("Opening the games database…")
            surface.write(text, x: rect.x + max(0, (rect.width - text.displayWidth) / 2), y: rect.y + rect.height / 2, style: Style(.muted), clip: rect)
            return
        }
        guard let user = viewModel.user else { return renderAccountForm(into: surface, rect: rect, context: context) }
        var area = rect
        // Today's games, urgent within the hour (bold, bell once per game).
        if let reminder = viewModel.reminder() {
            let (row, rest) = area.splitTop(1)
            area = rest
            ReminderLine.render(reminder, into: surface, row: row, rungFor: &viewModel.bellRungFor)
        }
        let (header, body) = area.splitTop(1)
        surface.write(" " + l.t("Logged in as {name}", ["name": user]), x: header.x, y: header.y, style: Style(.title, [.bold]), clip: header)
        let half = max(3, body.height / 2)
        let top = Rect(x: body.x, y: body.y, width: body.width, height: half)
        let bottom = Rect(x: body.x, y: body.y + half, width: body.width, height: body.height - half)
        listHeight = max(1, half - 2)
        renderList(title: l.t("Your games"), games: viewModel.upcoming, state: &upcomingList, focused: pane == .upcoming,
                   empty: l.t("No games to come. Press p to find games near a postcode."), into: surface, rect: top, context: context)
        let nearTitle = viewModel.postcode.isEmpty ? l.t("Games near a postcode (press p)")
            : l.t("Games at the 5 grounds nearest to {postcode}", ["postcode": viewModel.postcode])
        // The grounds found, nearest first, with their distance (~ when the position is approximate).
        let groundsLine = viewModel.grounds.isEmpty ? nil : viewModel.grounds.map {
            TerminalText.inert($0.name) + " " + ($0.approximate ? "~" : "") + WorkoutText.distance($0.distanceMeters, l)
        }.joined(separator: " · ")
        renderList(title: nearTitle, games: viewModel.nearby, state: &nearbyList, focused: pane == .nearby,
                   empty: viewModel.postcode.isEmpty ? "" : l.t("No games planned at these grounds yet. Press n to create one."),
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

    private func renderList(title: String, games: [GameListing], state: inout ListState, focused: Bool, empty: String,
                            header: String? = nil, into surface: Surface, rect: Rect, context: RenderContext) {
        guard rect.height >= 3 else { return }
        surface.drawBox(rect, title: title, style: Style(focused ? .accent : .border))
        var inner = rect.inset(dx: 1, dy: 1)
        if let header, inner.height > 1 {
            surface.write(" " + header, x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
            inner = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        }
        state.setCount(games.count)
        if games.isEmpty {
            surface.write(" " + empty, x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
            return
        }
        let l = context.localizer
        ListView().render(&state, into: surface, rect: inner, focused: focused) { index, _ in
            let g = games[index]
            // What matters first, so a narrow terminal cuts the least useful part: when, the
            // status and your part, the places, then the ground and the note (all in details).
            let wide = inner.width >= 110
            let when = GameTimeText.when(g, l) + (wide ? " (" + self.viewModel.relative(g.start) + ")" : "")
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

/// The line that reminds of today's games, in the Games tab and above every other tab.
enum ReminderLine {
    static func render(_ reminder: (text: String, urgent: GameListing?), into surface: Surface, row: Rect, rungFor: inout Int64?) {
        Banner(reminder.text, kind: reminder.urgent == nil ? .info : .warning).render(into: surface, row: row)
        guard let urgent = reminder.urgent else { return }
        surface.highlight(x: row.x, y: row.y, width: row.width, style: Style(.warn, [.bold, .reverse]))
        if rungFor != urgent.id { rungFor = urgent.id; surface.bellRequested = true }
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
        case .tab, .down: focus = (focus + 1) % 3; return .stay
        case .backTab, .up: focus = (focus + 2) % 3; return .stay
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
        case .tab, .down: focus = (focus + 1) % 6; return .stay
        case .backTab, .up: focus = (focus + 5) % 6; return .stay
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
                FormRows.chooser("\(g.name), \(g.suburb) · " + WorkoutText.distance(g.distanceMeters, l), field: field, focused: focused,
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

    /// A value chosen with ← →, shown as "◂ text ▸" ("< text >" in ASCII).
    static func chooser(_ text: String, field: Rect, focused: Bool, into surface: Surface, context: RenderContext) {
        let (left, right) = context.glyphs.ascii ? ("< ", " >") : ("◂ ", " ▸")
        surface.write(left + text + right, x: field.x, y: field.y, style: Style(focused ? .selection : .text, focused ? [.bold] : []), clip: field)
        if focused { surface.parkCursor(x: field.x, y: field.y) }
    }
}
