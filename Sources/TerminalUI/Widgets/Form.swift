/// What one cell of a form holds.
public enum FormInput: Equatable, Sendable {
    case text(TextFieldState)
    case dateTime(DateTimePickerState)
    /// One of `count` values, chosen with ← → (the screen names the chosen one when drawing).
    case choice(selected: Int, count: Int)
}

/// One cell of a form row: its input, its width (nil: what the row has left) and what an empty
/// text shows.
public struct FormCell: Equatable, Sendable {
    public var input: FormInput
    public var width: Int?
    public var placeholder: String

    public init(_ input: FormInput, width: Int? = nil, placeholder: String = "") {
        self.input = input
        self.width = width
        self.placeholder = placeholder
    }

    /// The cell's text (a choice's index, a date as "2026-12-05T10:00").
    public var text: String {
        switch input {
        case .text(let field): return field.text
        case .dateTime(let picker): return picker.localText
        case .choice(let selected, _): return String(selected)
        }
    }
}

/// The state of a form: rows of cells, the focused cell, and (for forms whose fields are typed
/// into on request) the text being typed. A plain value; `Form` holds it and gives it keys.
public struct FormState: Equatable, Sendable {
    /// How typing reaches a field.
    public enum Typing: Equatable, Sendable {
        /// The focused field takes what is typed (a log-in form).
        case direct
        /// `i` or F2 starts typing into the focused field, Enter or Tab keeps the text and Esc
        /// undoes it; in between, letters are free for the form's own keys (add, delete).
        case onRequest
    }

    public private(set) var rows: [[FormCell]]
    public private(set) var row = 0
    public private(set) var column = 0
    public let typing: Typing
    /// The text being typed into the focused field (`onRequest` forms only).
    public private(set) var editing: TextFieldState?
    /// How many rows are shown (and reachable); the rest wait, hidden (a log-in form's second
    /// password while logging in).
    public var shownRows: Int {
        didSet { shownRows = max(1, min(shownRows, rows.count)); clampFocus() }
    }

    public init(rows: [[FormCell]], typing: Typing = .direct) {
        self.rows = rows
        self.typing = typing
        shownRows = rows.count
    }

    /// The cell at `row`, `column`.
    public func cell(_ row: Int, _ column: Int = 0) -> FormCell { rows[row][column] }

    /// The text of a cell.
    public func text(_ row: Int, _ column: Int = 0) -> String { rows[row][column].text }

    /// The chosen index of a choice cell (0 for other cells).
    public func choice(_ row: Int) -> Int {
        if case .choice(let selected, _) = rows[row][0].input { return selected }
        return 0
    }

    /// The picker of a date cell.
    public func dateTime(_ row: Int) -> DateTimePickerState? {
        if case .dateTime(let picker) = rows[row][0].input { return picker }
        return nil
    }

    /// Replaces every row (a list of courses that grew or shrank), keeping the focus in range.
    public mutating func replaceRows(_ rows: [[FormCell]]) {
        let hiddenBefore = self.rows.count - shownRows
        self.rows = rows
        shownRows = max(1, rows.count - hiddenBefore)
        clampFocus()
    }

    /// Replaces one cell's input (a field emptied after a failed log-in).
    public mutating func set(_ input: FormInput, row: Int, column: Int = 0) {
        rows[row][column].input = input
    }

    /// Focuses a cell (the field a problem is about).
    public mutating func focus(row: Int, column: Int = 0) {
        self.row = row
        self.column = column
        editing = nil
        clampFocus()
    }

    private mutating func clampFocus() {
        row = max(0, min(row, shownRows - 1))
        column = max(0, min(column, rows[row].count - 1))
    }

    /// Whether letters typed now go to a field.
    public var isTyping: Bool {
        switch typing {
        case .direct:
            if case .choice = rows[row][column].input { return false }
            return true
        case .onRequest: return editing != nil
        }
    }

    /// ↑ ↓ Home End move between rows; Tab and Shift-Tab go through every cell, row after row;
    /// ← → go between the cells of a row in an `onRequest` form. Direct forms wrap round.
    public mutating func move(_ key: Key) {
        let wraps = typing == .direct
        func step(_ delta: Int) {
            let next = row + delta
            row = wraps ? (next + shownRows) % shownRows : max(0, min(shownRows - 1, next))
        }
        switch key {
        case .up: step(-1)
        case .down: step(1)
        case .home: row = 0
        case .end: row = shownRows - 1
        case .tab, .right:
            if column + 1 < rows[row].count { column += 1 } else if key == .tab || typing == .onRequest { column = 0; step(1) }
        case .backTab, .left:
            if column > 0 { column -= 1 } else { step(-1); column = rows[row].count - 1 }
        default: break
        }
        clampFocus()
    }

    /// A key for the focused cell of a direct form: typed into a text, ← → ↑ ↓ and digits for a
    /// date, ← → for a choice. Returns whether the cell used it.
    public mutating func type(_ key: Key) -> Bool {
        switch rows[row][column].input {
        case .text(var field):
            guard field.handle(key) else { return false }
            rows[row][column].input = .text(field)
        case .dateTime(var picker):
            guard picker.handle(key) else { return false }
            rows[row][column].input = .dateTime(picker)
        case .choice(let selected, let count):
            guard count > 0, key == .left || key == .right else { return false }
            rows[row][column].input = .choice(selected: (selected + (key == .left ? count - 1 : 1)) % count, count: count)
        }
        return true
    }

    /// Starts typing into the focused text cell of an `onRequest` form, from its text or empty.
    public mutating func beginEditing(empty: Bool = false) {
        guard case .text(var field) = rows[row][column].input else { return }
        if empty { field.text = "" }
        editing = field
    }

    /// A key for the text being typed (`onRequest` forms).
    public mutating func edit(_ key: Key) -> Bool {
        guard var field = editing else { return false }
        let used = field.handle(key)
        editing = field
        return used
    }

    /// Keeps the typed text in its cell and stops typing; returns where it went.
    public mutating func keepEditing() -> (row: Int, column: Int, text: String)? {
        guard let field = editing else { return nil }
        editing = nil
        rows[row][column].input = .text(field)
        return (row, column, field.text)
    }

    /// Stops typing and forgets what was typed.
    public mutating func undoEditing() { editing = nil }

    /// Whether the text being typed differs from its cell's: stopping now would lose it.
    public var typedTextDiffers: Bool {
        guard let editing, case .text(let field) = rows[row][column].input else { return false }
        return editing.text != field.text
    }
}

/// The translated words of a form's keys, for the footer and the help.
public struct FormTexts {
    public var title: String
    public var chooseField: String
    public var nextField: String
    public var submitHelp: String
    public var submit: String
    public var cancelHelp: String
    /// Esc's footer label; empty when Esc does nothing now (it is then not shown).
    public var cancel: String
    public var type: String
    /// `onRequest` forms: starting, keeping and undoing a field's typing.
    public var editHelp: String
    public var edit: String
    public var keep: String
    public var undo: String

    public init(title: String, chooseField: String, nextField: String, submitHelp: String, submit: String, cancelHelp: String,
                cancel: String, type: String, editHelp: String = "", edit: String = "", keep: String = "", undo: String = "") {
        self.title = title; self.chooseField = chooseField; self.nextField = nextField; self.type = type
        self.submitHelp = submitHelp; self.submit = submit; self.cancelHelp = cancelHelp; self.cancel = cancel
        self.editHelp = editHelp; self.edit = edit; self.keep = keep; self.undo = undo
    }
}

/// How a form is drawn, in the interface language: each row's label ("" for none), the text of
/// each choice row, and heading lines drawn above some rows (texts placed over the row's cells).
public struct FormLook {
    public var labels: [String]
    public var choices: [Int: String]
    public var headings: [Int: [String]]
    /// A warning after a row's cells ("in the past"), drawn as bad news.
    public var notes: [Int: String]

    public init(labels: [String], choices: [Int: String] = [:], headings: [Int: [String]] = [:], notes: [Int: String] = [:]) {
        self.labels = labels
        self.choices = choices
        self.headings = headings
        self.notes = notes
    }
}

/// A form: rows of labelled fields, a pointer on the focused one, keys declared as a `KeyTable`.
/// The four forms of the app (log in, new game, change a game, edit a unit) are all this one.
/// A value: whoever shows it keeps it (in a screen's mode, say), and its keys change it through
/// `update`, so every change of the form is an assignment its owner sees.
public struct Form: Equatable, Sendable {
    public var state: FormState

    public init(_ state: FormState) { self.state = state }

    /// Applies a change to the live form its owner keeps; returns what the change returns.
    public typealias Update = (_ change: (inout FormState) -> Bool) -> Bool

    /// The form's keys. `update` applies a change to the form as its owner keeps it; `submit`
    /// runs on Enter and `cancel` on Esc (each returns whether it took the key); `kept` receives
    /// what an `onRequest` field keeps; `extra` bindings (add, delete) act when no field is
    /// being typed into.
    public func keys(id: String, _ texts: FormTexts, update: @escaping Update, submit: @escaping () -> Bool, cancel: @escaping () -> Bool,
                     kept: @escaping (_ row: Int, _ column: Int, _ text: String) -> Void = { _, _, _ in },
                     extra: [KeyBinding] = []) -> KeyTable {
        switch state.typing {
        case .direct: return directKeys(id: id, texts, update: update, submit: submit, cancel: cancel)
        case .onRequest: return requestKeys(id: id, texts, update: update, submit: submit, cancel: cancel, kept: kept, extra: extra)
        }
    }

    private func directKeys(id: String, _ texts: FormTexts, update: @escaping Update, submit: @escaping () -> Bool,
                            cancel: @escaping () -> Bool) -> KeyTable {
        KeyTable(id: id, title: texts.title, [
            KeyBinding([.tab, .backTab, .up, .down], help: texts.chooseField,
                       footer: state.shownRows > 1 ? texts.nextField : nil, footerKeys: "Tab") { key in
                update { state in
                    // On a date, ↑ ↓ change the value; Tab and Shift-Tab leave it.
                    if key == .up || key == .down, case .dateTime = state.cell(state.row, state.column).input {
                        return state.type(key)
                    }
                    state.move(key)
                    return true
                }
            },
            KeyBinding([.enter], help: texts.submitHelp, footer: texts.submit) { _ in submit() },
            KeyBinding([.escape], help: texts.cancelHelp, footer: texts.cancel.isEmpty ? nil : texts.cancel) { _ in cancel() },
            KeyBinding.typing(keys: TextFieldState.editingKeys + [.up, .down, .pageUp, .pageDown], help: texts.type) { key in
                update { state in state.type(key) || state.isTyping }
            },
        ])
    }

    private func requestKeys(id: String, _ texts: FormTexts, update: @escaping Update, submit: @escaping () -> Bool,
                             cancel: @escaping () -> Bool, kept: @escaping (Int, Int, String) -> Void, extra: [KeyBinding]) -> KeyTable {
        if state.editing != nil {
            return KeyTable(id: id, title: texts.title, [
                KeyBinding([.enter, .tab], help: texts.keep, footer: texts.keep, footerKeys: "Enter") { _ in
                    var change: (row: Int, column: Int, text: String)?
                    _ = update { state in
                        change = state.keepEditing()
                        return true
                    }
                    if let change { kept(change.row, change.column, change.text) }
                    return true
                },
                KeyBinding([.escape], help: texts.undo, footer: texts.undo) { _ in
                    update { state in
                        state.undoEditing()
                        return true
                    }
                },
                KeyBinding.typing(help: texts.type) { key in
                    update { state in
                        _ = state.edit(key)
                        return true
                    }
                },
            ])
        }
        return KeyTable(id: id, title: texts.title, [
            KeyBinding([.up, .down, .home, .end, .left, .right, .tab, .backTab], help: texts.chooseField) { key in
                update { state in
                    state.move(key)
                    return true
                }
            },
            KeyBinding([.enter], help: texts.submitHelp, footer: texts.submit) { _ in submit() },
            KeyBinding([.escape], help: texts.cancelHelp, footer: texts.cancel) { _ in cancel() },
            KeyBinding([.character("i"), .function(2)], help: texts.editHelp, footer: texts.edit, footerKeys: "i") { _ in
                update { state in
                    state.beginEditing()
                    return true
                }
            },
        ] + extra)
    }

    /// The lines the form needs: one per shown row, one per heading above a shown row and a
    /// blank line before it.
    public func height(_ look: FormLook) -> Int {
        state.shownRows + look.headings.keys.filter { $0 < state.shownRows }.map { $0 > 0 ? 2 : 1 }.reduce(0, +)
    }

    /// Draws the form in `rect` (inside a box the screen drew): labels in a column that fits all
    /// of them, the focused row's label after a pointer one column left of `rect`, each row's
    /// cells after it; rows that do not fit scroll so that the focused one shows.
    public func render(into surface: Surface, rect: Rect, clip: Rect, look: FormLook) {
        let glyphs = surface.glyphs
        let labelWidth = look.labels.contains { !$0.isEmpty } ? (look.labels.map(\.displayWidth).max() ?? 0) + 2 : 0
        // Each shown row's line, after the headings above it (a heading's texts sit over the
        // cells of its row; `heading` is nil on the row's own line, empty on a blank one).
        var lines: [(row: Int, heading: [String]?)] = []
        for row in 0..<state.shownRows {
            if let heading = look.headings[row] {
                // A heading starts a section: a blank line before it.
                if row > 0 { lines.append((row, [])) }
                lines.append((row, heading))
            }
            lines.append((row, nil))
        }
        let focusedLine = lines.firstIndex { $0.row == state.row && $0.heading == nil } ?? 0
        let offset = max(0, focusedLine - rect.height + 1)
        for (index, line) in lines.enumerated().dropFirst(offset) {
            let y = rect.y + index - offset
            guard y < rect.maxY else { break }
            let row = line.row
            // A row without a label (a course under a heading) uses the whole width.
            let labelled = row < look.labels.count && !look.labels[row].isEmpty
            let frames = cellFrames(row: row, x: rect.x + (labelled ? labelWidth : 0), maxX: rect.maxX, y: y)
            if let heading = line.heading {
                for (text, frame) in zip(heading, frames) where !text.isEmpty {
                    surface.write(text, x: frame.x, y: y, style: Style(.title, [.bold]), clip: rect)
                }
                continue
            }
            let focused = row == state.row
            if labelled {
                let label = look.labels[row]
                surface.write((focused ? glyphs.pointer : " ") + label, x: rect.x - 1, y: y,
                              style: Style(focused ? .accent : .muted, focused ? [.bold] : []), clip: clip)
            }
            for (column, frame) in frames.enumerated() {
                drawCell(state.rows[row][column], choice: look.choices[row] ?? "", focused: focused && column == state.column,
                         frame: frame, into: surface)
            }
            if let note = look.notes[row], let last = frames.last {
                // A date leaves room after it; other cells take the row, so the note sits on their
                // end, a blank before it so that it does not run on from what was typed.
                let text = last.maxX + 2 + note.displayWidth <= rect.maxX ? note : " " + note
                let x = min(last.maxX + 2, rect.maxX - text.displayWidth)
                surface.write(text, x: max(last.x, x), y: y, style: Style(.bad, [.bold]), clip: rect)
            }
        }
    }

    /// Where each cell of `row` goes: fixed widths as asked, the rest shared by the others,
    /// two columns apart.
    private func cellFrames(row: Int, x: Int, maxX: Int, y: Int) -> [Rect] {
        let cells = state.rows[row]
        let fixed = cells.compactMap { cell -> Int? in
            if case .dateTime = cell.input { return cell.width ?? 17 }
            return cell.width
        }.reduce(0, +)
        let flexible = cells.filter { cell in
            if case .dateTime = cell.input { return false }
            return cell.width == nil
        }.count
        let free = max(1, maxX - x - fixed - 2 * (cells.count - 1))
        var left = x
        return cells.map { cell in
            var width: Int
            if case .dateTime = cell.input { width = cell.width ?? 17 } else { width = cell.width ?? free / max(1, flexible) }
            width = max(1, min(width, maxX - left))
            defer { left += width + 2 }
            return Rect(x: left, y: y, width: width, height: 1)
        }
    }

    private func drawCell(_ cell: FormCell, choice: String, focused: Bool, frame: Rect, into surface: Surface) {
        switch cell.input {
        case .text(let field):
            if state.typing == .direct {
                TextField(placeholder: cell.placeholder).render(field, into: surface, rect: frame, focused: focused)
            } else if focused, let editing = state.editing {
                TextField().render(editing, into: surface, rect: frame, focused: true)
            } else {
                let style = focused ? Style(.selection, [.bold]) : Style(.text, [.underline])
                surface.fill(frame, style: style)
                let text = field.text.isEmpty ? cell.placeholder : field.text
                surface.write(text.truncated(toWidth: frame.width, ellipsis: surface.glyphs.ellipsis), x: frame.x, y: frame.y, style: style, clip: frame)
                if focused { surface.parkCursor(x: frame.x, y: frame.y) }
            }
        case .dateTime(let picker):
            DateTimePicker().render(picker, into: surface, at: Point(x: frame.x, y: frame.y), focused: focused)
        case .choice:
            let (left, right) = surface.glyphs.ascii ? ("< ", " >") : ("◂ ", " ▸")
            surface.write(left + choice + right, x: frame.x, y: frame.y, style: Style(focused ? .selection : .text, focused ? [.bold] : []), clip: frame)
            if focused { surface.parkCursor(x: frame.x, y: frame.y) }
        }
    }
}
