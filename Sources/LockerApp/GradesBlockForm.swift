import LockerKit
import TerminalUI

/// The form that names a block on a copy (`A` adds a block, `e` on a block renames it): one
/// field typed into directly; Enter saves once, Esc discards. The draft lives in the
/// view-model (`GradesViewModel.blockEditor`).
final class GradesBlockForm {
    private let viewModel: GradesViewModel
    private var form: Form
    private(set) var problem: String?

    init(viewModel: GradesViewModel) {
        self.viewModel = viewModel
        form = Form(FormState(rows: [[FormCell(.text(TextFieldState(viewModel.blockEditor.draft?.name ?? "", maxLength: 80)))]]))
    }

    /// The form's keys; `close` runs once the block is saved or discarded.
    func keys(_ l: Localizer, close: @escaping () -> Void) -> KeyTable {
        let texts = FormTexts(title: l.t("Naming a block"), chooseField: l.t("Choose a field"), nextField: l.t("next field"),
                              submitHelp: l.t("Save the block"), submit: l.t("save"),
                              cancelHelp: l.t("Discard the change"), cancel: l.t("discard"),
                              type: l.t("Type the block's name"), editHelp: "", edit: "", keep: "", undo: "")
        return form.keys(id: "grades-block", texts, update: { change in change(&self.form.state) }, submit: {
            self.viewModel.updateBlockDraft { $0.name = self.form.state.text(0) }
            self.problem = self.viewModel.commitBlockEdit()
            if self.problem == nil { close() }
            return true
        }, cancel: {
            self.viewModel.cancelEdit()
            close()
            return true
        })
    }

    /// Forgets the last problem (the next key answers it).
    func clearProblem() { problem = nil }

    func render(into surface: Surface, area: Rect, context: RenderContext) {
        guard let draft = viewModel.blockEditor.draft else { return }
        let l = context.localizer
        let look = FormLook(labels: [l.t("Name")])
        let rect = area.centered(width: min(area.width, 60), height: min(area.height, form.height(look) + 2))
        surface.fill(rect)
        let title = draft.blockID == nil ? l.t("New block") : l.t("Rename block")
        surface.drawBox(rect, title: title + (hasChanges ? " *" : ""))
        form.render(into: surface, rect: rect.inset(dx: 2, dy: 1), clip: rect, look: look)
    }

    /// Whether leaving now would lose what was typed.
    var hasChanges: Bool {
        guard let draft = viewModel.blockEditor.draft else { return false }
        return form.state.text(0) != (viewModel.book.blocks.first { $0.id == draft.blockID }?.name ?? "")
    }
}
