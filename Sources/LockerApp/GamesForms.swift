import FoundationEssentials
import LockerKit
import TerminalUI

/// The Games tab's three forms (log in or sign up, new game, change a game), each a `Form`:
/// what their rows hold, how they are labelled, what they send, and which row a refusal is about.
enum GamesForms {
    // MARK: Account

    enum AccountRow { static let choice = 0, name = 1, password = 2, confirmation = 3 }

    static func account() -> Form {
        var state = FormState(rows: [
            [FormCell(.choice(selected: 0, count: 2))],
            [FormCell(.text(TextFieldState("", maxLength: GamesLimits.usernameLength.upperBound)))],
            [FormCell(.text(password()))],
            [FormCell(.text(password()))],
        ])
        state.shownRows = 3
        return Form(state)
    }

    static func password() -> TextFieldState { TextFieldState("", masked: true, maxLength: GamesLimits.passwordLength.upperBound) }

    static func signingUp(_ form: Form) -> Bool { form.state.choice(AccountRow.choice) == 1 }

    static func accountLook(_ form: Form, _ l: Localizer) -> FormLook {
        FormLook(labels: [l.t("Account"), l.t("Username"), l.t("Password"), l.t("Password again")],
                 choices: [AccountRow.choice: signingUp(form) ? l.t("sign up (new account)") : l.t("log in")])
    }

    /// The row a refused log-in or sign-up is about.
    static func accountRow(for error: GamesError) -> Int {
        switch error {
        case .badUsername, .usernameTaken: return AccountRow.name
        case .passwordsDiffer: return AccountRow.confirmation
        default: return AccountRow.password
        }
    }

    // MARK: New game

    enum CreateRow { static let ground = 0, starts = 1, players = 2, capacity = 3, minimum = 4, note = 5 }

    static func number(_ text: String) -> TextFieldState {
        TextFieldState(text, maxLength: 2, allowed: { $0.isASCII && $0.isNumber })
    }

    /// The first proposal is tomorrow at 10:00 on the first ground's clock (on the user's when the
    /// ground's offset is unknown): the user's own tomorrow can already be past at a ground ahead
    /// of them. The form edits the ground's wall time, which is what the store receives.
    static func create(grounds: [GroundListing], now: Double) -> Form {
        let offset = grounds.first?.utcOffsetSeconds ?? LocalTime.offset(at: now)
        let tomorrow = WallTime(clockSeconds: now + Double(offset) + 86_400)
        return Form(FormState(rows: [
            [FormCell(.choice(selected: 0, count: grounds.count))],
            [FormCell(.dateTime(picker(WallTime(year: tomorrow.year, month: tomorrow.month, day: tomorrow.day, hour: 10, minute: 0))))],
            [FormCell(.text(number("1")), width: 4)],
            [FormCell(.text(number("22")), width: 4)],
            [FormCell(.text(number("")), width: 4, placeholder: "—")],
            [FormCell(.text(TextFieldState("", maxLength: GamesLimits.noteLength)))],
        ]))
    }

    static func createLook(_ form: Form, grounds: [GroundListing], now: Double, _ l: Localizer) -> FormLook {
        let ground = grounds[min(form.state.choice(CreateRow.ground), grounds.count - 1)]
        let note = dateNote(form.state.dateTime(CreateRow.starts), groundOffset: ground.utcOffsetSeconds, now: now, l)
        return FormLook(labels: [l.t("Ground"), l.t("Starts (ground's time)"), l.t("Players there"), l.t("Capacity"), l.t("Minimum"), l.t("Note")],
                        choices: [CreateRow.ground: TerminalText.inert("\(ground.name), \(ground.suburb)") + " · " + MeasureText.distance(ground.distanceMeters, l)],
                        notes: note.map { [CreateRow.starts: $0] } ?? [:])
    }

    /// What the date row warns of as it is typed: a value the picker refused, or a time already
    /// past on the ground's clock (when its offset is known).
    static func dateNote(_ picker: DateTimePickerState?, groundOffset: Int?, now: Double, _ l: Localizer) -> String? {
        guard let picker else { return nil }
        if picker.refusedTyping { return l.t("not a possible value") }
        guard let groundOffset else { return nil }
        let groundNow = String(WallTime(clockSeconds: now + Double(groundOffset)).text.prefix(16))
        return picker.localText < groundNow ? l.t("in the past") : nil
    }

    /// Sends the new game (a mistake the store need not see is refused at once).
    static func sendCreate(_ form: Form, grounds: [GroundListing], to viewModel: GamesViewModel) {
        let s = form.state
        let note = s.text(CreateRow.note)
        viewModel.create(ground: grounds[s.choice(CreateRow.ground)].id, localTime: s.dateTime(CreateRow.starts)?.localText ?? "",
                                players: Int(s.text(CreateRow.players)) ?? 0, capacity: Int(s.text(CreateRow.capacity)) ?? 0,
                                minimum: Int(s.text(CreateRow.minimum)), note: note.isEmpty ? nil : note)
    }

    /// The row of the new-game form a refusal is about.
    static func createRow(for error: GamesError) -> Int {
        switch error {
        case .badPlayers: return CreateRow.players
        case .badCapacity: return CreateRow.capacity
        case .badMinimum: return CreateRow.minimum
        case .noteTooLong: return CreateRow.note
        case .unknownGround: return CreateRow.ground
        case .invalid(let field), .forbiddenCharacters(let field):
            return ["ground": CreateRow.ground, "players": CreateRow.players, "capacity": CreateRow.capacity,
                    "minimum": CreateRow.minimum, "note": CreateRow.note][field] ?? CreateRow.starts
        default: return CreateRow.starts
        }
    }

    // MARK: Change a game

    enum ChangeRow { static let starts = 0, capacity = 1, note = 2 }

    /// The game's start as the ground's clock shows it ("2026-12-05T18:30"), whatever the
    /// user's own clock says: that is what the form shows and what it sends back.
    static func groundWallTime(_ game: GameListing) -> WallTime? { WallTime.parse(String(game.localStart.prefix(16))) }

    static func change(_ game: GameListing) -> Form {
        let start = groundWallTime(game) ?? WallTime(clockSeconds: game.start)
        return Form(FormState(rows: [
            [FormCell(.dateTime(picker(start)))],
            [FormCell(.text(number(String(game.capacity))), width: 4)],
            [FormCell(.text(TextFieldState(game.note ?? "", maxLength: GamesLimits.noteLength)))],
        ]))
    }

    static func changeLook(_ form: Form, game: GameListing, now: Double, _ l: Localizer) -> FormLook {
        let note = dateNote(form.state.dateTime(ChangeRow.starts), groundOffset: GameTimeText.groundOffset(game), now: now, l)
        return FormLook(labels: [l.t("Starts ({zone} time)", ["zone": GameTimeText.zoneName(game.timeZone)]), l.t("Capacity"), l.t("Note")],
                        notes: note.map { [ChangeRow.starts: $0] } ?? [:])
    }

    /// Sends what changed (nothing else): the time exactly as shown, the capacity, the note (an
    /// empty note removes it).
    static func sendChange(_ form: Form, game: GameListing, to viewModel: GamesViewModel) {
        let s = form.state
        let shown = s.dateTime(ChangeRow.starts)?.localText
        let time = shown == String(game.localStart.prefix(16)) ? nil : shown
        let capacity = Int(s.text(ChangeRow.capacity))
        let note = s.text(ChangeRow.note)
        viewModel.edit(game, localTime: time, capacity: capacity == game.capacity ? nil : (capacity ?? 0),
                              note: note == (game.note ?? "") ? nil : note)
    }

    static func changeRow(for error: GamesError) -> Int {
        switch error {
        case .badCapacity: return ChangeRow.capacity
        case .noteTooLong: return ChangeRow.note
        case .invalid(let field), .forbiddenCharacters(let field):
            return ["capacity": ChangeRow.capacity, "note": ChangeRow.note][field] ?? ChangeRow.starts
        default: return ChangeRow.starts
        }
    }

    // MARK: Shared

    /// A picker on a wall clock: its arithmetic runs in UTC, so no zone moves the time shown.
    static func picker(_ time: WallTime) -> DateTimePickerState {
        DateTimePickerState(date: Date(timeIntervalSince1970: time.clockSeconds), timeZone: .gmt)
    }

    static func texts(_ l: Localizer, submit: String) -> FormTexts {
        FormTexts(title: l.t("Filling in a form"), chooseField: l.t("Choose a field; on a date, ↑ ↓ change the value"), nextField: l.t("next field"),
                  submitHelp: l.t("Create the game or save the changes"), submit: submit,
                  cancelHelp: l.t("Close without changing anything"), cancel: l.t("cancel"), type: l.t("Type in the chosen field"))
    }

    /// Draws a form in a box centred in `area`, with a hint line under its rows.
    static func render(_ form: Form, look: FormLook, title: String, hint: String, width: Int = 72,
                       into surface: Surface, area: Rect) {
        let hintLines = WordWrap.wrap(hint, width: max(10, min(area.width, width) - 4))
        let box = area.centered(width: min(area.width, width), height: min(area.height, form.height(look) + hintLines.count + 3))
        surface.fill(box)
        surface.drawBox(box, title: title)
        let inner = box.inset(dx: 2, dy: 1)
        let rows = Rect(x: inner.x, y: inner.y, width: inner.width, height: max(1, inner.height - hintLines.count - 1))
        form.render(into: surface, rect: rows, clip: box, look: look)
        for (i, line) in hintLines.enumerated() where rows.maxY + 1 + i < inner.maxY {
            surface.write(line, x: inner.x, y: rows.maxY + 1 + i, style: Style(.muted), clip: inner)
        }
    }
}
