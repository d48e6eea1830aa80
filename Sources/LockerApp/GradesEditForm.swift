import LockerKit
import TerminalUI

/// The form that edits one unit on a copy (key `e` in Grades): its name and coefficient, and its
/// courses' names and coefficients, as a `Form` typed into on request. `i` (or F2) types into
/// the chosen field, `a` adds a course, `d` deletes one, Enter saves after checking everything,
/// Esc discards everything. The draft lives in the view-model (`GradesViewModel.editor`); the
/// form's rows are rebuilt from it after each change.
final class GradesEditForm {
    private let viewModel: GradesViewModel
    private var form: Form
    private(set) var problem: String?

    /// Rows 0 and 1 are the unit's name and coefficient; each course is a row after them.
    private static let firstCourseRow = 2

    /// The question asked before a course with a mark leaves the draft, and which course.
    private(set) var deleteQuestion: ConfirmDialog?
    private var courseToDelete: Int?

    init(viewModel: GradesViewModel) {
        self.viewModel = viewModel
        form = Form(FormState(rows: Self.rows(viewModel.editor.draft), typing: .onRequest))
        // A new unit starts with its name being typed.
        if viewModel.editor.draft?.isNew == true { form.state.beginEditing(empty: true) }
    }

    private var draft: UnitForm? { viewModel.editor.draft }

    private static func name(_ text: String) -> FormCell { FormCell(.text(TextFieldState(text, maxLength: 80))) }

    private static func coefficient(_ text: String) -> FormCell {
        FormCell(.text(TextFieldState(text, maxLength: 6, allowed: { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") },
                                      accepts: { UnitForm.isCoefficientDraft($0) })), width: 8)
    }

    private static func rows(_ draft: UnitForm?) -> [[FormCell]] {
        guard let draft else { return [[name("")]] }
        return [[name(draft.name)], [coefficient(draft.coefficient)]] + draft.courses.map { [name($0.name), coefficient($0.coefficient)] }
    }

    /// Whether a field is being typed into (every key then goes to it).
    var isTyping: Bool { form.state.isTyping }

    /// Whether a field holds typing not kept yet (Enter keeps it): quitting would lose it.
    var holdsTyping: Bool { form.state.typedTextDiffers }

    /// The form's keys; `close` runs once the unit is saved or discarded. While the delete
    /// question is open, its keys only.
    func keys(_ l: Localizer, close: @escaping () -> Void) -> KeyTable {
        if deleteQuestion != nil { return deleteKeys(l) }
        let texts = FormTexts(title: l.t("Editing a unit"), chooseField: l.t("Choose a field"), nextField: l.t("next field"),
                              submitHelp: l.t("Check and save the unit"), submit: l.t("save"),
                              cancelHelp: l.t("Discard every change, adds and deletes included"), cancel: l.t("discard"),
                              type: l.t("Type in the chosen field"), editHelp: l.t("Type in the field; Enter keeps it, Esc undoes it"),
                              edit: l.t("edit field"), keep: l.t("keep"), undo: l.t("undo field"))
        let table = form.keys(id: "grades-edit", texts, update: { change in change(&self.form.state) }, submit: {
            if self.save() { close() }
            return true
        }, cancel: {
            self.viewModel.cancelEdit()
            close()
            return true
        }, kept: { row, column, text in
            self.write(text, row: row, column: column)
        }, extra: [
            KeyBinding([.character("a")], help: l.t("Add a course (coefficient 1, not graded)"), footer: l.t("add course")) {
                self.addCourse()
            },
            KeyBinding([.character("d")], help: l.t("Delete the chosen course"), footer: l.t("delete course")) {
                self.deleteCourse()
            }.disabled { self.form.state.row < Self.firstCourseRow ? l.t("Choose a course row to delete it.") : nil },
        ])
        return table
    }

    /// Forgets the last problem (the next key answers it).
    func clearProblem() { problem = nil }

    private func rebuild() { form.state.replaceRows(Self.rows(draft)) }

    private func addCourse() {
        let l = viewModel.localizer
        viewModel.updateDraft { $0.addCourse(named: l.t("New course")) }
        rebuild()
        form.state.focus(row: form.state.rows.count - 1, column: 0)
        form.state.beginEditing(empty: true)
    }

    /// Deletes the chosen course from the draft; one with a mark asks first.
    private func deleteCourse() {
        let index = form.state.row - Self.firstCourseRow
        guard let course = draft?.courses[index] else { return }
        guard let mark = course.mark else { return removeCourse(index) }
        let l = viewModel.localizer
        courseToDelete = index
        deleteQuestion = ConfirmDialog(title: l.t("Delete “{course}” and its mark {mark}?", ["course": course.name, "mark": GradeFormat.mark(mark, l)]),
                                       message: l.t("Esc on the form still discards everything; u undoes a saved edit."),
                                       yesLabel: l.t("Delete"), noLabel: l.t("Keep"))
    }

    private func removeCourse(_ index: Int) {
        viewModel.updateDraft { $0.courses.remove(at: index) }
        rebuild()
    }

    /// The delete question's keys (the dialog takes every key).
    private func deleteKeys(_ l: Localizer) -> KeyTable {
        .question(id: "grades-edit-delete", title: l.t("Delete a course with a mark?"), l, yesHelp: l.t("Delete"), yesFooter: l.t("Delete"),
                  noHelp: l.t("Keep"), noFooter: l.t("Keep"), dialog: { self.deleteQuestion }, store: { self.deleteQuestion = $0 }) { answer in
            self.deleteQuestion = nil
            if answer == .yes, let index = self.courseToDelete { self.removeCourse(index) }
            self.courseToDelete = nil
        }
    }

    /// Checks and saves the unit; false (with the first problem shown and focused) when it cannot.
    private func save() -> Bool {
        let l = viewModel.localizer
        let problems = viewModel.commitEdit()
        guard let first = problems.first else { return true }
        problem = first.message + (problems.count > 1 ? " " + l.n("({count} more problem)", "({count} more problems)", count: problems.count - 1) : "")
        switch first.field {
        case .name: form.state.focus(row: 0)
        case .coefficient: form.state.focus(row: 1)
        case .courseName(let i): form.state.focus(row: i + Self.firstCourseRow, column: 0)
        case .courseCoefficient(let i): form.state.focus(row: i + Self.firstCourseRow, column: 1)
        }
        return false
    }

    /// Writes a kept field into the draft; a course name left blank keeps the one it had.
    private func write(_ text: String, row: Int, column: Int) {
        let course = row - Self.firstCourseRow
        if !(text.allSatisfy(\.isWhitespace) && course >= 0 && column == 0) {
            viewModel.updateDraft { form in
                switch row {
                case 0: form.name = text
                case 1: form.coefficient = text
                default:
                    if column == 0 { form.courses[course].name = text } else { form.courses[course].coefficient = text }
                }
            }
        }
        rebuild()
    }

    func render(into surface: Surface, area: Rect, context: RenderContext) {
        guard let draft else { return }
        let l = context.localizer
        // A key the focused field refused says why, next to it.
        var notes: [Int: String] = [:]
        if let editing = form.state.editing, editing.refusedTyping {
            let isCoefficient = form.state.row == 1 || form.state.column == 1
            notes[form.state.row] = isCoefficient
                ? l.t("a number from 0.01 to 100, e.g. 1{separator}5", ["separator": MeasureText.decimalSeparator(l)])
                : l.t("at most 80 characters")
        }
        let look = FormLook(labels: [l.t("Name"), l.t("Coefficient")] + draft.courses.map { _ in "" },
                            headings: [Self.firstCourseRow: [l.t("Courses"), l.t("coef.")]], notes: notes)
        let rect = area.centered(width: min(area.width, 78), height: min(area.height, form.height(look) + (draft.courses.isEmpty ? 4 : 2)))
        surface.fill(rect)
        let title = draft.isNew ? l.t("New unit {code} in “{block}”", ["code": "UE\(draft.code)", "block": viewModel.book.blocks.first { $0.id == draft.addedToBlock }?.name ?? ""])
            : l.t("Edit unit {code}", ["code": "UE\(draft.code)"])
        surface.drawBox(rect, title: title + (viewModel.editor.hasChanges ? " *" : ""))
        let inner = rect.inset(dx: 2, dy: 1)
        form.render(into: surface, rect: inner, clip: rect, look: look)
        if draft.courses.isEmpty, inner.y + 3 < inner.maxY {
            surface.write(l.t("Courses"), x: inner.x, y: inner.y + 2, style: Style(.title, [.bold]), clip: inner)
            surface.write(l.t("No courses: press a to add one."), x: inner.x, y: inner.y + 3, style: Style(.muted), clip: inner)
        }
    }
}
