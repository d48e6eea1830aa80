import FoundationEssentials
import LockerKit
import TerminalUI

/// The Grades tab: blocks with their average and standing, under them their units, under each
/// unit its courses with a slider, the mark and a lock. Arrow keys move marks, Space locks,
/// `x` clears, `e` edits a unit on a copy, `n` shows what is still needed, Enter folds.
public final class GradesScreen: TabScreen {
    public let tab = Tab.grades
    let viewModel: GradesViewModel
    /// Rebuilds the rows after a change of the book's structure, before the shell redraws.
    private var token: ObservationToken?
    private var builtVersion = 0

    /// One line of the tree.
    enum Row: Equatable {
        case block(String)
        case unit(String, block: String)
        case course(String, unit: String, block: String)
    }
    private var rows: [Row] = []
    private var list = ListState()
    private var listHeight = 10
    /// The needs panel's lines (built by `layout` while it is open), its first shown line and
    /// how many it shows at once.
    private var needsLines: [(String, Style)] = []
    private var needsOffset = 0
    private var needsPage = 1
    private var folded = Set<String>()   // "block" ids and "block/unit" keys
    private var search = SearchState()
    @Expiring private var message: String?
    public var messageExpiry: Date? { $message.expiresAt }
    /// What the Grades tab is doing: one value; the keys, the footer, `capturesText`, the status
    /// and the drawing derive from it.
    enum Mode: Equatable {
        /// Moving in the tree, changing marks.
        case browsing
        /// "What do I need?" over the tree, whose keys still act.
        case needs
        /// A search being typed (every key goes to the field).
        case searching
        /// A unit edited on a copy (every key goes to the form).
        case editing(GradesEditForm)
        /// A block named on a copy (every key goes to the form).
        case namingBlock(GradesBlockForm)
        /// "Delete …?" asked on the status line (every key goes to the question).
        case deleting(Deletion, ConfirmDialog)

        static func == (a: Mode, b: Mode) -> Bool {
            switch (a, b) {
            case (.browsing, .browsing), (.needs, .needs), (.searching, .searching): return true
            case (.editing(let x), .editing(let y)): return x === y
            case (.namingBlock(let x), .namingBlock(let y)): return x === y
            case (.deleting(let x, let p), .deleting(let y, let q)): return x == y && p == q
            default: return false
            }
        }
    }

    /// What `d` deletes: the selected row's course, unit or block.
    enum Deletion: Equatable {
        case course(String), unit(String), block(String)
    }

    private(set) var mode = Mode.browsing
    private var showNeeds: Bool { mode == .needs }
    private var editForm: GradesEditForm? {
        if case .editing(let form) = mode { return form }
        return nil
    }
    private var blockForm: GradesBlockForm? {
        if case .namingBlock(let form) = mode { return form }
        return nil
    }

    /// The question open on the status line: deleting from the tree, or a marked course from
    /// the edit form.
    public var question: ConfirmDialog? {
        if case .deleting(_, let dialog) = mode { return dialog }
        return editForm?.deleteQuestion
    }
    private var reportedLoadProblem = false
    /// The view-model's change count when the open form was opened.
    private var changesBeforeForm = 0
    private var toldShellLoadProblem = false

    /// The load problem once, then whatever the view-model has to say once (a file changed on
    /// disk), which the shell shows whatever tab is open.
    public func takeEffects() -> ScreenEffects {
        var notices = viewModel.takeNotices()
        guard !toldShellLoadProblem, let problem = viewModel.loadProblem else { return ScreenEffects(notices: notices) }
        toldShellLoadProblem = true
        notices.insert(problem, at: 0)
        return ScreenEffects(notices: notices)
    }

    /// The status glyphs of blocks, units and the year.
    public func legend(_ localizer: Localizer, glyphs: Glyphs) -> HelpSection? {
        HelpSection(title: localizer.t("What the marks beside an average mean"), hints: GradesStyle.legend(localizer, glyphs))
    }

    public init(viewModel: GradesViewModel) {
        self.viewModel = viewModel
        rebuild()
        // Registered before the shell's observer, so the rows are current when it redraws.
        token = viewModel.observe { [weak self] in
            guard let self, builtVersion != viewModel.structureVersion else { return }
            builtVersion = viewModel.structureVersion
            rebuild()
        }
    }

    /// Every key goes to the search field, a form or a question while one is open.
    public var capturesText: Bool {
        switch mode {
        case .searching, .editing, .namingBlock, .deleting: return true
        case .browsing, .needs: return false
        }
    }
    public func unsavedWork(_ l: Localizer) -> String? {
        viewModel.editor.hasChanges || editForm?.holdsTyping == true || blockForm?.hasChanges == true ? unsavedChanges(l) : nil
    }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        viewModel.observe(callback)
    }

    public var idleWork: IdleWork? {
        if viewModel.hasPendingSave { return IdleWork(.save) { self.viewModel.savePending() } }
        return viewModel.isSaving ? IdleWork(.beforeQuit) { self.viewModel.finishSaving() } : nil
    }

    // MARK: Rows

    /// The tree's rows from the book's structure and the folds (rebuilt whole, not patched).
    private func rebuild() {
        let previous = rows.indices.contains(list.selected) ? rows[list.selected] : nil
        var newRows: [Row] = []
        var widest = 0
        for block in viewModel.book.blocks {
            newRows.append(.block(block.id))
            widest = max(widest, 3 + block.name.displayWidth)
            guard !folded.contains(block.id) else { continue }
            for unitID in block.units {
                guard let unit = viewModel.unit(unitID) else { continue }
                newRows.append(.unit(unitID, block: block.id))
                widest = max(widest, 4 + unit.title.displayWidth)
                guard !folded.contains(block.id + "/" + unitID) else { continue }
                for course in unit.courses {
                    newRows.append(.course(course.id, unit: unitID, block: block.id))
                    widest = max(widest, 6 + course.name.displayWidth)
                }
            }
        }
        rows = newRows
        widestName = widest
        list.setCount(rows.count)
        if let previous, let index = rows.firstIndex(of: previous) { list.select(index) }
    }

    /// The widest name of the rows shown, with its indent: the name column is no wider, so on a
    /// wide terminal a course's mark stays beside its name.
    private var widestName = 0

    private var selectedRow: Row? { rows.indices.contains(list.selected) ? rows[list.selected] : nil }

    private var selectedCourse: GradeCourse? {
        if case .course(let id, _, _)? = selectedRow { return viewModel.course(id) }
        return nil
    }

    private var selectedUnitID: String? {
        switch selectedRow {
        case .unit(let id, _)?, .course(_, let id, _)?: return id
        default: return nil
        }
    }

    private func text(of row: Row) -> String {
        switch row {
        case .block(let id): return viewModel.book.blocks.first { $0.id == id }?.name ?? ""
        case .unit(let id, _): return viewModel.unit(id)?.title ?? ""
        case .course(let id, _, _): return viewModel.course(id)?.name ?? ""
        }
    }

    // MARK: Keys

    /// Runs the active table; while a search is typed, the search table takes every key, and
    /// the edit form takes every key.
    public func handle(_ key: Key) -> Bool {
        // The book arrives within a few frames; a key meanwhile would act on nothing.
        if viewModel.isLoading { return true }
        reportedLoadProblem = true   // the start-up problem stays until the first key
        let l = viewModel.localizer
        if let form = editForm {
            // The open form keeps every key from the shell, used or not; a key answers the
            // last problem, unless it is typed into a field.
            if !form.isTyping { form.clearProblem() }
            _ = formKeys(form, l).handle(key)
            return true
        }
        if let form = blockForm {
            form.clearProblem()
            _ = blockFormKeys(form, l).handle(key)
            return true
        }
        if case .deleting = mode {
            _ = activeKeys(l).handle(key)
            return true
        }
        if mode == .searching { return activeKeys(l).handle(key) }
        // A key closing the needs panel keeps the message; any other clears it.
        if !(showNeeds && Self.needsClosingKeys.contains(key)) { message = nil }
        return browsingKeys(l).handle(key)
    }

    /// The keys that close the needs panel while it is shown (the `n` and "Esc Enter" bindings).
    private static let needsClosingKeys: [Key] = [.character("w"), .escape, .enter]

    public func keyTables(_ l: Localizer) -> [KeyTable] {
        [browsingKeys(l), searchKeys(l), formKeys(editForm ?? GradesEditForm(viewModel: viewModel), l),
         blockFormKeys(blockForm ?? GradesBlockForm(viewModel: viewModel), l), deleteKeys(.unit(""), l)]
    }

    /// The table of the mode: the open form's or question's, the search field's, else the tree's.
    public func activeKeys(_ l: Localizer) -> KeyTable {
        switch mode {
        case .editing(let form): return formKeys(form, l)
        case .namingBlock(let form): return blockFormKeys(form, l)
        case .deleting(let deletion, _): return deleteKeys(deletion, l)
        case .searching: return searchKeys(l)
        case .browsing, .needs: return browsingKeys(l)
        }
    }

    private func blockFormKeys(_ form: GradesBlockForm, _ l: Localizer) -> KeyTable {
        form.keys(l) { self.closeForm() }
    }

    /// The delete question's keys: it takes every key until it is answered.
    private func deleteKeys(_ deletion: Deletion, _ l: Localizer) -> KeyTable {
        .question(id: "grades-delete", title: l.t("Delete from the grades?"), l, yesHelp: l.t("Delete"), yesFooter: l.t("Delete"),
                  noHelp: l.t("Keep"), noFooter: l.t("Keep"), dialog: {
            if case .deleting(_, let dialog) = self.mode { return dialog }
            return nil
        }, store: { self.mode = .deleting(deletion, $0) }) { answer in
            self.mode = .browsing
            if answer == .yes { self.delete(deletion) }
        }
    }

    private func formKeys(_ form: GradesEditForm, _ l: Localizer) -> KeyTable {
        form.keys(l) { self.closeForm() }
    }

    /// Back to the tree after a form; a unit or block just added is selected.
    private func closeForm() {
        mode = .browsing
        // A form that saved says so (and that u takes it back); one dropped says nothing.
        if viewModel.changeCount != changesBeforeForm, let change = viewModel.lastChange {
            $message.confirm(viewModel.localizer.t("Done: {change}. u undoes it.", ["change": change.text(viewModel.localizer)]))
        }
        // A unit added to a folded block shows: its block unfolds.
        if let added = viewModel.added { folded.remove(added.block) }
        rebuild()
        guard let added = viewModel.added else { return }
        let row: Row = added.unit.map { .unit($0, block: added.block) } ?? .block(added.block)
        if let index = rows.firstIndex(of: row) { list.select(index) }
    }

    /// The tree's keys (also while the needs panel is shown).
    private func browsingKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "grades", title: l.t("Grades"), [
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end] + ViMoves.keys,
                       help: l.t("Move between blocks, units and courses; with “What do I need?” open, scroll it")) { key in
                if self.showNeeds { return self.scrollNeeds(key) }
                return self.list.handle(key, pageSize: self.listHeight)
            },
            KeyBinding([.left, .right],
                       help: l.t("Lower / raise the selected mark by 0.5 (an ungraded course starts at the pass mark)"),
                       footer: l.t("mark"), footerKeys: "←→") { key in
                self.step(key == .left ? -0.5 : 0.5)
                return true
            },
            KeyBinding([.character("<"), .shiftLeft, .character(">"), .shiftRight],
                       help: l.t("Lower / raise the selected mark by 0.1"), footer: l.t("±0.1"), footerKeys: "< >") { key in
                self.step([.character("<"), .shiftLeft].contains(key) ? -0.1 : 0.1)
                return true
            }.ranked(90),
            KeyBinding([.character(" ")], help: l.t("Lock or unlock the mark (a locked mark does not move)"),
                       footer: l.t("lock")) {
                self.toggleLock()
            }.ranked(70),
            KeyBinding([.character("x")], help: l.t("Clear the mark (not graded yet)"), footer: l.t("clear")) {
                self.clearMark()
            }.ranked(80),
            KeyBinding([.character("e")], help: l.t("Edit the selected unit, or rename the selected block, on a copy: Enter saves, Esc discards"),
                       footer: l.t("edit")) {
                self.editSelected()
            }.ranked(60),
            // Its own key: n and N step through a search's matches.
            KeyBinding([.character("w")], help: l.t("What do I need: the mark still needed in each block"),
                       footer: l.t("what do I need")) { _ in
                self.needsOffset = 0
                self.mode = self.showNeeds ? .browsing : .needs
                return true
            }.ranked(10),   // the footer keeps, before the rest: the mark, what is needed, undo, add, delete
            KeyBinding([.character("u")], help: l.t("Undo the last change to the grades (marks, locks, edits, additions, deletions)"),
                       footer: l.t("undo")) {
                self.undo(redo: false)
            }.ranked(30),
            KeyBinding([.character("d"), .delete], help: l.t("Delete the selected course, unit or block (asks first when marks would go)"),
                       footer: l.t("delete"), footerKeys: "d") {
                self.askToDelete()
            }.ranked(50),
            KeyBinding([.character("a")], help: l.t("Add a unit to the selected block (a form: Enter saves, Esc discards)"),
                       footer: l.t("add")) {
                self.addUnit()
            }.ranked(40),
            KeyBinding([.character("A")], help: l.t("Add a block (a form: Enter saves, Esc discards)"), footer: l.t("add block")) {
                self.beginNamingBlock(nil)
            },
            KeyBinding([.control("r")], help: l.t("Redo the last change undone"), footer: l.t("redo"), footerKeys: "^R") {
                self.undo(redo: true)
            },
            KeyBinding([.escape, .enter], help: l.t("Close “What do I need?”")) { _ in
                guard self.showNeeds else { return false }
                self.mode = .browsing
                return true
            },
            KeyBinding([.enter], help: l.t("Fold or unfold a block or a unit")) { _ in
                switch self.selectedRow {
                case .block(let id)?: self.toggleFold(id)
                case .unit(let id, let block)?: self.toggleFold(block + "/" + id)
                default: return false
                }
                return true
            },
            KeyBinding([.character("/"), .character("n"), .character("N")], help: l.t("Search course and unit names")) { key in
                if key == .character("/") {
                    self.search.begin()
                    self.mode = .searching
                } else if let hit = self.search.step(forward: key == .character("n")) {
                    self.list.select(hit)
                } else {
                    self.$message.confirm(SearchState.nothingToRepeat(l))
                }
                return true
            },
            KeyBinding([.escape], help: l.t("Clear the search")) { _ in
                guard !self.search.query.isEmpty else { return false }
                self.search.clear()
                return true
            },
        ])
    }

    private func searchKeys(_ l: Localizer) -> KeyTable {
        .searchTyping(id: "grades-search", l, search: { self.search }, type: { self.search.handleTyping($0) }, clear: { self.search.clear() },
                      apply: { self.updateSearch() }, done: { self.mode = .browsing }, missed: { self.$message.confirm($0) })
    }

    private func toggleLock() {
        guard let course = selectedCourse else {
            message = viewModel.localizer.t("Choose a course to lock or unlock its mark.")
            return
        }
        report(viewModel.toggleLock(course.id), course)
    }

    private func clearMark() {
        guard let course = selectedCourse else {
            message = viewModel.localizer.t("Choose a course to clear its mark.")
            return
        }
        report(viewModel.clear(course.id), course)
    }

    /// `e`: the selected unit's form, or the selected block's name.
    private func editSelected() {
        if case .block(let id)? = selectedRow { return beginNamingBlock(id) }
        guard let unitID = selectedUnitID else {
            message = viewModel.localizer.t("Choose a unit or one of its courses to edit the unit.")
            return
        }
        changesBeforeForm = viewModel.changeCount
        viewModel.beginEditing(unitID)
        mode = .editing(GradesEditForm(viewModel: viewModel))
    }

    /// The block of the selected row (nil when the tree is empty).
    private var selectedBlockID: String? {
        switch selectedRow {
        case .block(let id)?, .unit(_, let id)?, .course(_, _, let id)?: return id
        case nil: return nil
        }
    }

    private func addUnit() {
        guard let blockID = selectedBlockID else {
            message = viewModel.localizer.t("There is no block to add a unit to: A adds a block first.")
            return
        }
        changesBeforeForm = viewModel.changeCount
        viewModel.beginAddingUnit(toBlock: blockID)
        mode = .editing(GradesEditForm(viewModel: viewModel))
    }

    private func beginNamingBlock(_ id: String?) {
        changesBeforeForm = viewModel.changeCount
        viewModel.beginEditingBlock(id)
        mode = .namingBlock(GradesBlockForm(viewModel: viewModel))
    }

    /// `d`: a course without a mark goes at once (u brings it back); a course with a mark, a
    /// unit or a block asks first, saying what would go with it.
    private func askToDelete() {
        let l = viewModel.localizer
        let deletion: Deletion, title: String, cost: GradesViewModel.DeletionCost
        switch selectedRow {
        case .course(let id, _, _)?:
            guard let course = viewModel.course(id) else { return }
            guard let mark = course.mark else {
                delete(.course(id))
                return
            }
            deletion = .course(id)
            title = l.t("Delete course “{course}” and its mark {mark}?", ["course": course.name, "mark": GradeFormat.mark(mark, l)])
            cost = GradesViewModel.DeletionCost()
        case .unit(let id, _)?:
            deletion = .unit(id)
            title = l.t("Delete unit “{unit}”?", ["unit": viewModel.unit(id)?.title ?? id])
            cost = viewModel.deletionCost(ofUnit: id)
        case .block(let id)?:
            deletion = .block(id)
            title = l.t("Delete block “{block}”?", ["block": viewModel.book.blocks.first { $0.id == id }?.name ?? id])
            cost = viewModel.deletionCost(ofBlock: id)
        case nil:
            message = l.t("Nothing to delete.")
            return
        }
        var goes: [String] = []
        if case .block = deletion, cost.units > 0 {
            goes.append(l.n("{count} unit in no other block goes with it", "{count} units in no other block go with it", count: cost.units))
        }
        if case .unit(let id) = deletion {
            goes.append(l.n("{count} course goes with it", "{count} courses go with it", count: cost.courses))
            // A unit counted in several blocks leaves all of them.
            let blocks = viewModel.book.blocks.filter { $0.units.contains(id) }.map { l.t("“{name}”", ["name": $0.name]) }
            if blocks.count > 1 { goes.append(l.t("it leaves every block that counts it: {blocks}", ["blocks": blocks.joined(separator: ", ")])) }
        }
        if cost.marks > 0 { goes.append(l.n("{count} mark is lost", "{count} marks are lost", count: cost.marks)) }
        let detail = (goes.isEmpty ? "" : goes.joined(separator: ", ") + ". ") + l.t("u undoes it.")
        mode = .deleting(deletion, ConfirmDialog(title: title, message: detail, yesLabel: l.t("Delete"), noLabel: l.t("Keep")))
    }

    private func delete(_ deletion: Deletion) {
        switch deletion {
        case .course(let id): viewModel.deleteCourse(id)
        case .unit(let id): viewModel.deleteUnit(id)
        case .block(let id): viewModel.deleteBlock(id)
        }
        if let change = viewModel.lastChange {
            $message.confirm(viewModel.localizer.t("Done: {change}. u undoes it.", ["change": change.text(viewModel.localizer)]))
        }
    }

    /// Selects the row of `subject` (a course, unit or block still in the book), unfolding what
    /// hides it.
    private func show(_ subject: GradeSubject) {
        let book = viewModel.book
        let target: Row?
        switch subject {
        case .block(let id):
            target = book.blocks.contains { $0.id == id } ? .block(id) : nil
        case .unit(let id):
            target = book.blocks.first { $0.units.contains(id) }.map { .unit(id, block: $0.id) }
        case .course(let id):
            let unit = book.units.first { $0.courses.contains { $0.id == id } }
            target = unit.flatMap { unit in book.blocks.first { $0.units.contains(unit.id) }.map { .course(id, unit: unit.id, block: $0.id) } }
        }
        guard let target else { return }
        switch target {
        case .block: break
        case .unit(_, let block): folded.remove(block)
        case .course(_, let unit, let block): folded.remove(block); folded.remove(block + "/" + unit)
        }
        rebuild()
        if let index = rows.firstIndex(of: target) { list.select(index) }
    }

    /// `u` and Ctrl-R: the status line says what was undone or redone, or that there is nothing.
    private func undo(redo: Bool) {
        let l = viewModel.localizer
        if let change = redo ? viewModel.redo() : viewModel.undo() {
            // What came back (or changed again) is selected, so the next key acts on it.
            if let subject = viewModel.lastSubject { show(subject) }
            $message.confirm(redo ? l.t("Redone: {change}.", ["change": change.text(l)]) : change.undoneText(l))
        } else {
            message = redo ? l.t("Nothing to redo.") : l.t("Nothing to undo in this run.")
        }
    }

    private func toggleFold(_ key: String) {
        if folded.contains(key) { folded.remove(key) } else { folded.insert(key) }
        rebuild()
    }

    private func step(_ delta: Double) {
        guard let course = selectedCourse else {
            message = viewModel.localizer.t("Choose a course: marks are set on course rows.")
            return
        }
        report(viewModel.nudge(course.id, by: delta), course)
    }

    private func report(_ outcome: GradesViewModel.Outcome, _ course: GradeCourse) {
        let l = viewModel.localizer
        switch outcome {
        case .locked: message = l.t("“{course}” is locked; Space unlocks it.", ["course": course.name])
        case .atLimit: message = l.t("The mark is already at the end of the scale.")
        case .needsMark: message = l.t("Give “{course}” a mark before locking it.", ["course": course.name])
        case .changed, .nothing: break
        }
    }

    private func updateSearch() {
        search.update(items: rows.map(text(of:)), from: list.selected)
        if let hit = search.currentHit { list.select(hit) }
    }

    public func status(_ l: Localizer) -> String? {
        if viewModel.isLoading { return l.t("Reading your grades…") }
        if let message { return message }
        if let problem = viewModel.saveProblem { return problem }
        if let form = editForm, let problem = form.problem { return problem }
        if let form = blockForm, let problem = form.problem { return problem }
        if !reportedLoadProblem, let problem = viewModel.loadProblem { return problem }
        // A search in force says which match is shown ("3 of 12 matches"), or that none is.
        if mode == .browsing, let found = search.status(l) { return found }
        if case .course(let id, let unitID, _)? = selectedRow, let course = viewModel.course(id), let unit = viewModel.unit(unitID) {
            // Each coefficient next to what it weighs: the unit's in the block, the course's in the unit.
            return l.t("{unit} (coefficient {unitCoefficient}) · {course} (coefficient {coefficient} in the unit)",
                       ["unit": unit.title, "unitCoefficient": GradeFormat.coefficient(unit.coefficient, l),
                        "coefficient": GradeFormat.coefficient(course.coefficient, l), "course": course.name])
        }
        return nil
    }

    // MARK: Drawing

    /// The year line on top, the tree below it.
    public func layout(_ area: Rect, context: RenderContext) {
        let body = area.splitTop(1).1
        listHeight = body.height
        list.scrollToSelection(height: listHeight)
        if showNeeds {
            needsLines = GradesNeedsPanel(viewModel: viewModel, selectedCourse: selectedCourse?.id).lines(context.localizer, glyphs: context.glyphs)
            needsPage = GradesNeedsPanel.visibleLines(in: body, lineCount: needsLines.count)
            needsOffset = min(needsOffset, max(0, needsLines.count - needsPage))
        }
    }

    /// ↑ ↓ PgUp PgDn Home End over the needs panel: its lines scroll, the tree stays.
    private func scrollNeeds(_ key: Key) -> Bool {
        let last = max(0, needsLines.count - needsPage)
        switch ViMoves.arrow(for: key) {
        case .up: needsOffset -= 1
        case .down: needsOffset += 1
        case .control("u"): needsOffset -= max(1, needsPage / 2)
        case .control("d"): needsOffset += max(1, needsPage / 2)
        case .pageUp: needsOffset -= max(1, needsPage - 1)
        case .pageDown: needsOffset += max(1, needsPage - 1)
        case .home: needsOffset = 0
        case .end: needsOffset = last
        default: return false
        }
        needsOffset = min(max(0, needsOffset), last)
        return true
    }

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let (header, body) = rect.splitTop(1)
        guard !viewModel.isLoading else {
            surface.write(" " + l.t("Reading your grades…"), x: header.x, y: header.y, style: Style(.muted), clip: header)
            return
        }
        renderYear(into: surface, rect: header, context: context)
        renderRows(into: surface, rect: body, context: context)
        if showNeeds {
            GradesNeedsPanel.render(needsLines, into: surface, area: body, offset: needsOffset, context: context)
        }
        if let editForm {
            editForm.render(into: surface, area: body, context: context)
        } else if let blockForm {
            blockForm.render(into: surface, area: body, context: context)
        } else if mode == .searching {
            surface.fill(header)
            let x = surface.write(l.t("Search:") + " ", x: header.x + 1, y: header.y, style: Style(.accent, [.bold]), clip: header)
            TextField().render(search.field, into: surface, rect: Rect(x: x, y: header.y, width: header.maxX - x, height: 1), focused: true)
        }
    }

    /// "Year: ~ on track, needs 9.62 · Total 12.31 ~ · Projet/Stage 10.00 ~": the year's status
    /// (passed only when every course is marked, or secured), then each block's average and
    /// status mark.
    private func renderYear(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer, g = context.glyphs
        let year = viewModel.results.year
        var text = GradesStyle.glyph(year.status, g) + " " + year.status.word(l)
        if !year.status.isFinal, let needed = year.needed {
            text += ", " + l.t("needs {mark}", ["mark": GradeFormat.needed(needed, l)])
        }
        var spans = [Span(" " + l.t("{label}: {value}", ["label": l.t("Year"), "value": ""]), Style(.title, [.bold])), Span(text, GradesStyle.style(year.status, bold: true))]
        let blocks = viewModel.book.blocks.map { block in
            let status = viewModel.blockOutlook(block.id).status
            return (name: block.name, status: status,
                    mark: GradesStyle.mark(viewModel.blockAverage(block.id), l) + " " + GradesStyle.glyph(status, g))
        }
        // When the line is too long, the block names are shortened (the longest first, to four
        // columns at least) before anything is cut: each block keeps its average in view.
        let separator = "  " + g.separator + " "
        let fixed = spans.reduce(0) { $0 + $1.text.displayWidth } + blocks.reduce(0) { $0 + separator.displayWidth + 1 + $1.mark.displayWidth }
        let nameWidths = blocks.map(\.name.displayWidth)
        var nameLimit = nameWidths.max() ?? 0
        while nameLimit > 4, fixed + nameWidths.reduce(0, { $0 + min($1, nameLimit) }) > rect.width { nameLimit -= 1 }
        for block in blocks {
            spans.append(Span(separator, Style(.border)))
            spans.append(Span(block.name.truncated(toWidth: nameLimit, ellipsis: g.ellipsis) + " ", Style(.text)))
            spans.append(Span(block.mark, GradesStyle.style(block.status, bold: false)))
        }
        surface.write(Span.truncated(spans, toWidth: rect.width, ellipsis: g.ellipsis), x: rect.x, y: rect.y, clip: rect)
    }

    private func renderRows(into surface: Surface, rect: Rect, context: RenderContext) {
        guard !rect.isEmpty else { return }
        let offset = list.visibleOffset(height: rect.height)
        let needsBar = rows.count > rect.height
        let content = Rect(x: rect.x, y: rect.y, width: rect.width - (needsBar ? 1 : 0), height: rect.height)
        let g = context.glyphs
        // Columns from the right: lock (2), mark (6), slider, coefficient (7).
        let lockWidth = 2, markWidth = 7, coefficientWidth = 7
        let sliderWidth = max(6, min(30, content.width / 4))
        let nameWidth = max(8, min(content.width - lockWidth - markWidth - sliderWidth - coefficientWidth - 3, max(24, widestName + 2)))
        let coefficientX = content.x + nameWidth + 1
        let sliderX = coefficientX + coefficientWidth
        let markX = sliderX + sliderWidth + 1
        let lockX = markX + markWidth
        for line in 0..<content.height {
            let index = offset + line
            guard index < rows.count else { break }
            let row = content.row(line)
            let selected = index == list.selected
            if selected { surface.fill(row, style: Style(.selection)) }
            let base: Style = selected ? Style(.selection) : Style(.text)
            func styled(_ style: Style) -> Style { selected ? Style(.selection, style.attributes) : style }
            switch rows[index] {
            case .block(let id):
                guard let block = viewModel.book.blocks.first(where: { $0.id == id }) else { continue }
                let average = viewModel.blockAverage(id)
                let status = viewModel.blockOutlook(id).status
                let fold = folded.contains(id) ? (g.ascii ? "+" : "▸") : (g.ascii ? "-" : "▾")
                surface.write(" " + fold + " " + block.name.truncated(toWidth: nameWidth - 3, ellipsis: g.ellipsis), x: row.x, y: row.y, style: styled(Style(.title, [.bold])), clip: row)
                // A block's mark is the block's status (✓ only when passed or secured), not its average's.
                writeAverage(average, glyph: GradesStyle.glyph(status, g), style: GradesStyle.style(status, bold: true),
                             x: markX, y: row.y, surface: surface, g: g, selected: selected, clip: row)
                let word = status.word(context.localizer)
                surface.write(word, x: sliderX + sliderWidth - word.displayWidth, y: row.y, style: selected ? base : GradesStyle.style(status, bold: true), clip: row)
            case .unit(let id, let blockID):
                guard let unit = viewModel.unit(id) else { continue }
                let average = viewModel.unitAverage(id)
                let fold = folded.contains(blockID + "/" + id) ? (g.ascii ? "+" : "▸") : " "
                surface.write("  " + fold + " " + unit.title.truncated(toWidth: nameWidth - 4, ellipsis: g.ellipsis), x: row.x, y: row.y, style: styled(Style(.accent, [.bold])), clip: row)
                surface.write((GradesStyle.times(g) + GradeFormat.coefficient(unit.coefficient, context.localizer)).padded(toWidth: coefficientWidth - 1, alignment: .right), x: coefficientX, y: row.y, style: styled(Style(.muted)), clip: row)
                if unit.professional {
                    surface.write(context.localizer.t("pro"), x: sliderX, y: row.y, style: styled(Style(.muted)), clip: row)
                }
                // Like a block's: the status, with the marks still to come counted.
                let status = viewModel.unitStatus(id)
                writeAverage(average, glyph: GradesStyle.glyph(status, g), style: GradesStyle.style(status, bold: true),
                             x: markX, y: row.y, surface: surface, g: g, selected: selected, clip: row)
            case .course(let id, _, _):
                guard let c = viewModel.course(id) else { continue }
                let standing = viewModel.book.standing(c.mark)
                surface.write("      " + c.name.truncated(toWidth: nameWidth - 6, ellipsis: g.ellipsis), x: row.x, y: row.y, style: base, clip: row)
                surface.write((GradesStyle.times(g) + GradeFormat.coefficient(c.coefficient, context.localizer)).padded(toWidth: coefficientWidth - 1, alignment: .right), x: coefficientX, y: row.y, style: styled(Style(.muted)), clip: row)
                Slider(value: c.mark, maximum: viewModel.book.scale, marker: viewModel.book.passMark, style: GradesStyle.style(standing, bold: false))
                    .render(into: surface, rect: Rect(x: sliderX, y: row.y, width: sliderWidth, height: 1))
                writeAverage(c.mark, glyph: nil, style: GradesStyle.style(standing, bold: true),
                             x: markX, y: row.y, surface: surface, g: g, selected: selected, clip: row)
                if c.locked { surface.write(g.lock, x: lockX, y: row.y, style: styled(Style(.warn, [.bold])), clip: row) }
            }
            if selected { surface.parkCursor(x: row.x, y: row.y) }
        }
        if rows.isEmpty {
            surface.write(" " + context.localizer.t("No blocks yet: A adds one (or import a CSV with locker grades import FILE.csv)."), x: content.x, y: content.y, style: Style(.muted), clip: content)
        }
        if needsBar {
            ScrollBar(total: rows.count, visible: rect.height, offset: offset)
                .render(into: surface, rect: Rect(x: rect.maxX - 1, y: rect.y, width: 1, height: rect.height))
        }
    }

    /// "12.31 ✓": a mark or average right-aligned in its column, then `glyph` (when given; it
    /// keeps the meaning without colour), in `style`.
    private func writeAverage(_ value: Double?, glyph: String?, style: Style, x: Int, y: Int, surface: Surface, g: Glyphs,
                              selected: Bool, clip: Rect) {
        let text = GradesStyle.mark(value, viewModel.localizer).padded(toWidth: 5, alignment: .right) + (glyph.map { " " + $0 } ?? "")
        surface.write(text, x: x, y: y, style: selected ? Style(.selection, [.bold]) : style, clip: clip)
    }
}

/// Colours, glyphs and words of a standing, shared by the Grades views.
enum GradesStyle {
    /// A mark or average with two decimals, "—" (ASCII "-") when there is none.
    static func mark(_ value: Double?, _ l: Localizer) -> String {
        GradeFormat.mark(value, l)   // "—" when ungraded: "--" in ASCII, never a lone minus
    }

    /// The coefficient sign: "×6" (ASCII "x6").
    static func times(_ g: Glyphs) -> String { g.ascii ? "x" : "×" }

    static func style(_ standing: GradeStanding, bold: Bool) -> Style {
        let attributes: TextAttributes = bold ? [.bold] : []
        switch standing {
        case .pass: return Style(.good, attributes)
        case .atRisk: return Style(.warn, attributes)
        case .fail: return Style(.bad, attributes)
        case .ungraded: return Style(.muted, attributes)
        }
    }

    /// What each status glyph of a block, a unit or the year means, in the order of `glyph`.
    static func legend(_ l: Localizer, _ g: Glyphs) -> [KeyHint] {
        [KeyHint(glyph(.passed, g), l.t("passed, or secured (passes even with 0 in every course to come)")),
         KeyHint(glyph(.onTrack, g), l.t("on track: the marks given pass; some are still to come")),
         KeyHint(glyph(.atRisk, g), l.t("at risk: the marks given fall short; the ones to come can still pass it")),
         KeyHint(glyph(.outOfReach, g), l.t("out of reach, or failed: no mark to come can pass it")),
         KeyHint(glyph(.notStarted, g), l.t("no marks yet"))]
    }

    /// A block's or the year's status: green when passed or secured, the warning colour while
    /// marks are missing, red when it can no longer pass.
    static func style(_ status: GradeStatus, bold: Bool) -> Style {
        let attributes: TextAttributes = bold ? [.bold] : []
        switch status {
        case .passed, .secured: return Style(.good, attributes)
        case .onTrack: return Style(.text, attributes)
        case .atRisk: return Style(.warn, attributes)
        case .outOfReach, .failed: return Style(.bad, attributes)
        case .notStarted: return Style(.muted, attributes)
        }
    }

    /// ✓ passed or secured, ~ on track, ! at risk, ✗ out of reach or failed, · no marks yet.
    static func glyph(_ status: GradeStatus, _ g: Glyphs) -> String {
        switch status {
        case .passed, .secured: return g.check
        case .onTrack: return "~"
        case .atRisk: return g.warning
        case .outOfReach, .failed: return g.cross
        case .notStarted: return g.ascii ? "-" : "·"
        }
    }
}
