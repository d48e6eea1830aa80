import LockerKit
import TerminalUI

/// The form that edits one unit on a copy (key `e` in Grades): its name and coefficient, and its
/// courses' names and coefficients. `i` (or F2) types into the chosen field, `a` adds a course,
/// `d` deletes one, Enter saves after checking everything, Esc discards everything.
final class GradesEditForm {
    private let viewModel: GradesViewModel
    /// 0 = unit name, 1 = unit coefficient, 2… = courses.
    private var row = 0
    /// On a course row: 0 = name, 1 = coefficient.
    private var column = 0
    private var typing: TextFieldState?
    /// The scroll of the course rows (their selection follows `row` on a course).
    private var courseRows = ListState()
    private(set) var problem: String?

    init(viewModel: GradesViewModel) {
        self.viewModel = viewModel
    }

    private var draft: UnitForm? { viewModel.editor.draft }
    private var rowCount: Int { 2 + (draft?.courses.count ?? 0) }

    /// Sees every key before the form's table (`keys`): a field being typed into takes them all
    /// (Enter and Tab keep its text, Esc undoes it). Otherwise the last problem is cleared and the
    /// key is left to the table; returns whether the key was taken.
    func prehandle(_ key: Key) -> Bool {
        guard var field = typing else {
            problem = nil
            return false
        }
        switch key {
        case .enter, .tab:
            write(field.text)
            typing = nil
        case .escape:
            typing = nil
        default:
            _ = field.handle(key)
            typing = field
        }
        return true
    }

    /// The form's keys; `close` runs once the unit is saved or discarded. Footers change while a
    /// field is typed into (Enter keeps it, Esc undoes it).
    func keys(_ l: Localizer, close: @escaping () -> Void) -> KeyTable {
        let typing = self.typing != nil
        return KeyTable(id: "grades-edit", title: l.t("Editing a unit"), [
            KeyBinding([.up, .down, .home, .end, .left, .right, .tab, .backTab], "↑ ↓ Home End Tab Shift-Tab ← →",
                       help: l.t("Choose a field")) { key in
                self.moveFocus(key)
                return true
            },
            KeyBinding([.enter], "Enter", help: l.t("Check and save the unit"), footer: typing ? l.t("keep") : l.t("save")) {
                if self.save() { close() }
            },
            KeyBinding([.escape], "Esc", help: l.t("Discard every change, adds and deletes included"),
                       footer: typing ? l.t("undo field") : l.t("discard")) {
                self.viewModel.cancelEdit()
                close()
            },
            KeyBinding([.character("i"), .function(2)], "i F2", help: l.t("Type in the field; Enter keeps it, Esc undoes it"),
                       footer: typing ? nil : l.t("edit field"), footerKeys: "i") {
                self.beginTyping()
            },
            KeyBinding([.character("a")], "a", help: l.t("Add a course (coefficient 1, not graded)"),
                       footer: typing ? nil : l.t("add course")) {
                self.addCourse()
            },
            KeyBinding([.character("d")], "d", help: l.t("Delete the chosen course"),
                       footer: typing ? nil : l.t("delete course")) {
                self.deleteCourse()
            },
        ])
    }

    private func moveFocus(_ key: Key) {
        switch key {
        case .up: row = max(0, row - 1)
        case .down: row = min(rowCount - 1, row + 1)
        case .home: row = 0
        case .end: row = rowCount - 1
        default:   // ← → Tab Shift-Tab
            if row >= 2 { column = 1 - column } else if key == .tab { row = min(rowCount - 1, row + 1) }
        }
    }

    private func addCourse() {
        let l = viewModel.localizer
        viewModel.updateDraft { $0.addCourse(named: l.t("New course")) }
        row = rowCount - 1
        column = 0
        beginTyping(empty: true)
    }

    private func deleteCourse() {
        let l = viewModel.localizer
        guard row >= 2 else { problem = l.t("Choose a course row to delete it."); return }
        let index = row - 2
        viewModel.updateDraft { $0.courses.remove(at: index) }
        row = min(row, rowCount - 1)
    }

    /// Checks and saves the unit; false (with the first problem shown and focused) when it cannot.
    private func save() -> Bool {
        let l = viewModel.localizer
        let problems = viewModel.commitEdit()
        guard let first = problems.first else { return true }
        problem = first.message + (problems.count > 1 ? " " + l.n("({count} more problem)", "({count} more problems)", count: problems.count - 1) : "")
        focus(first.field)
        return false
    }

    private func focus(_ field: UnitForm.Field) {
        switch field {
        case .name: row = 0
        case .coefficient: row = 1
        case .courseName(let i): row = i + 2; column = 0
        case .courseCoefficient(let i): row = i + 2; column = 1
        }
    }

    private func currentText() -> String {
        guard let draft else { return "" }
        switch row {
        case 0: return draft.name
        case 1: return draft.coefficient
        default: return column == 0 ? draft.courses[row - 2].name : draft.courses[row - 2].coefficient
        }
    }

    /// Starts typing in the chosen field (empty for a course just added: its name is typed
    /// from scratch, and confirming nothing keeps the default name).
    private func beginTyping(empty: Bool = false) {
        let isNumber = row == 1 || (row >= 2 && column == 1)
        let text = empty ? "" : currentText()
        if isNumber {
            typing = TextFieldState(text, maxLength: 10, allowed: { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") })
        } else {
            typing = TextFieldState(text, maxLength: 80)
        }
    }

    private func write(_ text: String) {
        if text.allSatisfy(\.isWhitespace) && row >= 2 && column == 0 { return }
        let (row, column) = (self.row, self.column)
        viewModel.updateDraft { form in
            switch row {
            case 0: form.name = text
            case 1: form.coefficient = text
            default:
                if column == 0 { form.courses[row - 2].name = text } else { form.courses[row - 2].coefficient = text }
            }
        }
    }

    /// The form's box in `area`: high enough for every course when it can be.
    private func box(_ draft: UnitForm, in area: Rect) -> Rect {
        area.centered(width: min(area.width, 78), height: min(area.height, draft.courses.count + 7))
    }

    /// How many course rows fit in the box, below the name, the coefficient and the titles.
    private static func visibleCourses(inner: Rect) -> Int { max(1, inner.height - 4) }

    /// The course rows' scroll state for `draft`, the chosen course (if any) selected.
    private func courseScroll(_ draft: UnitForm) -> ListState {
        var state = courseRows
        state.setCount(draft.courses.count)
        if row >= 2 { state.select(row - 2) }
        return state
    }

    /// Keeps the chosen course in view for `area` (the shell lays out before each frame).
    func layout(_ area: Rect) {
        guard let draft else { return }
        courseRows = courseScroll(draft)
        courseRows.scrollToSelection(height: Self.visibleCourses(inner: box(draft, in: area).inset(dx: 2, dy: 1)))
    }

    func render(into surface: Surface, area: Rect, context: RenderContext) {
        guard let draft else { return }
        let l = context.localizer
        let rect = box(draft, in: area)
        surface.fill(rect)
        surface.drawBox(rect, title: l.t("Edit unit {code}", ["code": "UE\(draft.code)"]) + (viewModel.editor.hasChanges ? " *" : ""))
        let inner = rect.inset(dx: 2, dy: 1)
        let labelWidth = 14
        let g = context.glyphs
        func field(_ text: String, focused: Bool, x: Int, y: Int, width: Int) {
            if focused, let typing {
                TextField().render(typing, into: surface, rect: Rect(x: x, y: y, width: width, height: 1), focused: true)
                return
            }
            let style = focused ? Style(.selection, [.bold]) : Style(.text, [.underline])
            surface.fill(Rect(x: x, y: y, width: width, height: 1), style: style)
            surface.write(text.truncated(toWidth: width, ellipsis: g.ellipsis), x: x, y: y, style: style, clip: inner)
            if focused { surface.parkCursor(x: x, y: y) }
        }
        let fieldWidth = inner.width - labelWidth
        surface.write(l.t("Name"), x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
        field(draft.name, focused: row == 0, x: inner.x + labelWidth, y: inner.y, width: fieldWidth)
        surface.write(l.t("Coefficient"), x: inner.x, y: inner.y + 1, style: Style(.muted), clip: inner)
        field(draft.coefficient, focused: row == 1, x: inner.x + labelWidth, y: inner.y + 1, width: 8)
        let coefficientWidth = 8
        let nameWidth = inner.width - coefficientWidth - 2
        surface.write(l.t("Courses"), x: inner.x, y: inner.y + 3, style: Style(.title, [.bold]), clip: inner)
        surface.write(l.t("coef."), x: inner.x + nameWidth + 2, y: inner.y + 3, style: Style(.muted), clip: inner)
        let visible = Self.visibleCourses(inner: inner)
        let courseRow = row - 2
        let offset = courseScroll(draft).visibleOffset(height: visible)
        if draft.courses.isEmpty {
            surface.write(l.t("No courses: press a to add one."), x: inner.x, y: inner.y + 4, style: Style(.muted), clip: inner)
        }
        for (line, index) in (offset..<min(draft.courses.count, offset + visible)).enumerated() {
            let y = inner.y + 4 + line
            let course = draft.courses[index]
            field(course.name, focused: courseRow == index && column == 0, x: inner.x, y: y, width: nameWidth)
            field(course.coefficient, focused: courseRow == index && column == 1, x: inner.x + nameWidth + 2, y: y, width: coefficientWidth)
        }
    }
}
