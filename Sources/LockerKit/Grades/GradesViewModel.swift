import FoundationEssentials

/// The root view-model of the Grades tab. It owns the `GradeBook` (a plain struct), applies the
/// intents of the screen (slider steps, locks, clearing, editing a unit on a copy) and saves
/// every change atomically. A change runs one way: an intent changes the book, the averages are
/// computed once (`results`), and the observers (the screen) are told once.
public final class GradesViewModel: ViewModel {
    public let localizer: Localizer
    private let repository: any Repository<GradeBook>
    public private(set) var book: GradeBook
    /// Where each course and unit is in `book`, so per-course lookups stay O(1) on large books.
    private var courseIndex: [String: (unit: Int, course: Int)] = [:]
    private var unitIndex: [String: Int] = [:]

    /// Every average of the current book, and where each block and the year stand.
    public struct Results {
        public var units: [String: Double?]
        /// Each unit's status, in the same terms as a block's (`UnitTally.status`).
        public var unitStatuses: [String: GradeStatus]
        public var blocks: [String: Double?]
        public var blockOutlooks: [String: GradeOutlook]
        public var year: GradeOutlook

        /// Before a book is read.
        static var none: Results { Results(units: [:], unitStatuses: [:], blocks: [:], blockOutlooks: [:], year: GradeOutlook(status: .notStarted, needed: nil)) }
    }
    /// Bumped when units or courses are added, removed or renamed (a screen's rows then change;
    /// a mark change leaves them as they are).
    public private(set) var structureVersion = 0
    /// Set when the stored file could not be used (it was kept aside); shown once as a notice.
    public private(set) var loadProblem: String?
    /// Set when the last save failed; cleared by the next successful one.
    public private(set) var saveProblem: String?
    /// True while a change waits to be written (the shell saves once keys pause, and at quit).
    public private(set) var hasPendingSave = false
    /// The unit being edited on a copy, if any.
    public private(set) var editor = Editor<UnitForm>()

    /// What a slider, lock or clear intent did, for the status line.
    public enum Outcome: Equatable, Sendable {
        case changed
        /// The mark is locked; nothing moved.
        case locked
        /// The mark is already at 0 or at the scale.
        case atLimit
        /// An ungraded course cannot be locked.
        case needsMark
        case nothing
    }

    /// A view-model over `repository` with no book yet; the public initialisers read it.
    private init(localizer: Localizer, repository: any Repository<GradeBook>) {
        self.localizer = localizer
        self.repository = repository
        book = GradeBook(units: [], blocks: [])
        results = .none
        super.init()
    }

    /// Reads grades.json now, on the calling thread (the command line, tests); `defaults` is
    /// the book shown when there is no usable file.
    public convenience init(localizer: Localizer, repository: any Repository<GradeBook>, defaults: GradeBook) {
        self.init(localizer: localizer, repository: repository)
        take(repository.load()) { defaults }
    }

    /// Reads grades.json, and the bundled curriculum `defaultsFile` when it is needed, on
    /// another core: the tab is drawn at once and `isLoading` until the book arrives (a large
    /// book takes tens of milliseconds to decode). Nothing is saved before it has arrived.
    /// `repository` is read and written on other threads, one job at a time: its validator must
    /// not use the UI's localizer (give it a `Localizer.snapshot()`).
    public convenience init(localizer: Localizer, repository: any Repository<GradeBook>, work: BackgroundWork, defaultsFile: URL?) {
        self.init(localizer: localizer, repository: repository)
        isLoading = true
        self.work = work
        writer = SingleJob<FileOutcome>(work) { [weak self] result in self?.fileJobEnded(result) }
        // Only this job uses the repository until it is delivered, and its own localizer.
        let reading = UncheckedSendable((repository, localizer.snapshot()))
        work.start({ _ -> (LoadOutcome<GradeBook>, GradeBook?) in
            let (repository, localizer) = reading.value
            let outcome = repository.load()
            if case .loaded = outcome { return (outcome, nil) }
            return (outcome, GradesViewModel.bundledDefaults(defaultsFile, localizer).0)
        }, completion: { [weak self] result in
            // The job throws nothing and is never cancelled; were it to fail, the tab would stay
            // "reading" and save nothing over the file.
            guard let self, case .success(let (outcome, fallback)) = result else { return }
            isLoading = false
            take(outcome) { fallback ?? GradeBook(units: [], blocks: []) }
            structureVersion += 1
            notifyChanged()
        })
    }

    /// True until grades.json has been read (`init(localizer:repository:work:defaultsFile:)`).
    public private(set) var isLoading = false
    /// Reads and writes grades.json off the UI thread, when given (the app).
    private var work: BackgroundWork?
    /// One job on grades.json at a time (a save, or the tab's book kept aside); the next takes
    /// the book as it is when it starts.
    private var writer: SingleJob<FileOutcome>?

    /// What a job on grades.json did.
    private enum FileOutcome: Sendable {
        case saved
        /// The save was refused: another program changed the file, which reads as this now.
        case changedOnDisk(LoadOutcome<GradeBook>)
        /// The tab's own book, kept beside the new file (nil: it could not be written).
        case keptAside(URL?)
    }

    /// Shows what reading grades.json gave: the stored book, or `defaults` on a first start or
    /// when the file was unusable (it was kept aside).
    private func take(_ outcome: LoadOutcome<GradeBook>, defaults: () -> GradeBook) {
        switch outcome {
        case .loaded(let stored):
            book = stored
        case .missing:
            // First start: the bundled curriculum is shown; grades.json is written with the first
            // change, so merely opening the app (which builds this tab while idle) writes nothing.
            book = defaults()
        case .corrupt(let backup, let reason):
            book = defaults()
            loadProblem = localizer.t("grades.json could not be used ({reason}); it was kept as {backup} and the default curriculum is shown.",
                                      ["reason": reason.text(localizer), "backup": backup?.lastPathComponent ?? "—"])
            hasPendingSave = true
        }
        reindex()
        results = computeResults()
    }

    private func reindex() {
        courseIndex = [:]
        unitIndex = [:]
        for (u, unit) in book.units.enumerated() {
            unitIndex[unit.id] = u
            for (c, course) in unit.courses.enumerated() { courseIndex[course.id] = (u, c) }
        }
    }

    private func location(ofCourse id: String) -> (unit: Int, course: Int)? {
        if let found = courseIndex[id], book.units.indices.contains(found.unit),
           book.units[found.unit].courses.indices.contains(found.course),
           book.units[found.unit].courses[found.course].id == id { return found }
        return book.location(ofCourse: id)
    }

    public func unit(_ id: String) -> GradeUnit? {
        if let u = unitIndex[id], book.units.indices.contains(u), book.units[u].id == id { return book.units[u] }
        return book.unit(id)
    }

    /// The default curriculum bundled in Data/grades/grades.json, or an empty book when that
    /// file cannot be read (the reason is returned for a notice).
    public static func bundledDefaults(_ url: URL?, _ l: Localizer) -> (GradeBook, String?) {
        guard let url else { return (GradeBook(units: [], blocks: []), nil) }
        do {
            return (try GradeBook.load(from: url, l), nil)
        } catch {
            return (GradeBook(units: [], blocks: []), "\(error)")
        }
    }

    /// A repository that refuses files breaking the format's rules, naming the field.
    public static func repository(_ url: URL, _ l: Localizer) -> JSONRepository<GradeBook> {
        JSONRepository<GradeBook>(url: url, encode: GradeBook.fileData) { try $0.validate(l) }
    }

    // MARK: Reading

    public func course(_ id: String) -> GradeCourse? {
        location(ofCourse: id).map { book.units[$0.unit].courses[$0.course] }
    }

    public func unitAverage(_ id: String) -> Double? { results.units[id] ?? nil }

    public func unitStatus(_ id: String) -> GradeStatus { results.unitStatuses[id] ?? .notStarted }

    public func blockAverage(_ id: String) -> Double? { results.blocks[id] ?? nil }

    /// Where block `id` stands (not started when there is no such block).
    public func blockOutlook(_ id: String) -> GradeOutlook { results.blockOutlooks[id] ?? GradeOutlook(status: .notStarted, needed: nil) }

    public func needs() -> GradeNeeds { book.needs() }

    /// The averages of every unit and block, computed once after each change.
    public private(set) var results: Results

    private func computeResults() -> Results {
        // One pass over the courses: the unit averages and the blocks' needs both read it.
        let tallies = book.tallies()
        var units: [String: Double?] = [:]
        units.reserveCapacity(book.units.count)
        var unitStatuses: [String: GradeStatus] = [:]
        unitStatuses.reserveCapacity(book.units.count)
        for (position, unit) in book.units.enumerated() {
            units[unit.id] = tallies[position].average
            unitStatuses[unit.id] = tallies[position].status(passMark: book.passMark, scale: book.scale)
        }
        var blocks: [String: Double?] = [:]
        blocks.reserveCapacity(book.blocks.count)
        for block in book.blocks {
            // The unit averages just computed, through the index (no linear lookups).
            let average = GradeBook.weightedMean(block.units.lazy.compactMap { id in
                self.unitIndex[id].map { (weight: self.book.units[$0].coefficient, value: units[id] ?? nil) }
            })
            blocks[block.id] = average
        }
        let outlook = book.outlook(needs: book.needs(leverage: false, tallies: tallies, positions: unitIndex))
        var blockOutlooks: [String: GradeOutlook] = [:]
        blockOutlooks.reserveCapacity(book.blocks.count)
        for (block, entry) in zip(book.blocks, outlook.blocks) { blockOutlooks[block.id] = entry }
        return Results(units: units, unitStatuses: unitStatuses, blocks: blocks, blockOutlooks: blockOutlooks, year: outlook.year)
    }

    // MARK: Marks

    /// Moves a mark by `delta` (±0.5 or ±0.1), clamped to 0 … scale. An ungraded course starts
    /// at the pass mark, where a student would begin to simulate.
    @discardableResult
    public func nudge(_ courseID: String, by delta: Double) -> Outcome {
        guard let (u, c) = location(ofCourse: courseID) else { return .nothing }
        let course = book.units[u].courses[c]
        if course.locked { return .locked }
        let target: Double
        if let mark = course.mark {
            // Only the float noise of the step goes (0.625 + 0.5 is 1.125, not 1.13): marks are
            // shown cut to hundredths everywhere (GradeFormat.mark), so a step and its way back
            // show the mark they started from.
            target = min(max(((mark + delta) * 1_000_000).rounded() / 1_000_000, 0), book.scale)
            if target == mark { return .atLimit }
        } else {
            target = book.passMark
        }
        let before = book
        book.units[u].courses[c].mark = target
        let change = GradeChange.mark(course: course.name, courseID: course.id, from: course.mark, to: target)
        recorded(from: before, change, about: .course(course.id), merging: { change.joined(after: $0) })
        return .changed
    }

    /// Makes the mark not graded again.
    @discardableResult
    public func clear(_ courseID: String) -> Outcome {
        guard let (u, c) = location(ofCourse: courseID) else { return .nothing }
        let course = book.units[u].courses[c]
        if course.locked { return .locked }
        guard let mark = course.mark else { return .nothing }
        let before = book
        book.units[u].courses[c].mark = nil
        recorded(from: before, .clear(course: course.name, from: mark), about: .course(course.id))
        return .changed
    }

    /// Locks or unlocks a mark; a course without a mark cannot be locked.
    @discardableResult
    public func toggleLock(_ courseID: String) -> Outcome {
        guard let (u, c) = location(ofCourse: courseID) else { return .nothing }
        if book.units[u].courses[c].mark == nil && !book.units[u].courses[c].locked { return .needsMark }
        let before = book
        book.units[u].courses[c].locked.toggle()
        recorded(from: before, .lock(course: book.units[u].courses[c].name, locked: book.units[u].courses[c].locked), about: .course(courseID))
        return .changed
    }

    // MARK: Editing a unit on a copy

    public var isEditing: Bool { editor.isEditing || blockEditor.isEditing }

    /// What the last form added (a block, or a unit in a block), for the screen to select.
    public private(set) var added: (block: String, unit: String?)?

    public func beginEditing(_ unitID: String) {
        guard let unit = book.unit(unitID) else { return }
        added = nil
        editor.beginEditing(UnitForm(unit))
        notifyChanged()
    }

    /// Opens the unit form on a new unit (no courses, coefficient 1) that Enter adds at the
    /// end of block `blockID`; Esc drops it.
    public func beginAddingUnit(toBlock blockID: String) {
        guard book.blocks.contains(where: { $0.id == blockID }) else { return }
        var n = book.units.count + 1
        while book.unit("ue\(n)") != nil { n += 1 }
        let code = (book.units.map(\.code).max() ?? 0) + 1
        var form = UnitForm(GradeUnit(id: "ue\(n)", code: code, name: "", coefficient: 1))
        form.addedToBlock = blockID
        added = nil
        editor.beginEditing(form)
        notifyChanged()
    }

    /// Changes the draft; nothing reaches the book before `commitEdit`.
    public func updateDraft(_ change: (inout UnitForm) -> Void) {
        editor.update(change)
        notifyChanged()
    }

    /// Checks the draft; when valid, replaces the unit and saves. Returns the problems otherwise
    /// (and keeps editing).
    public func commitEdit() -> [UnitForm.Problem] {
        guard let draft = editor.draft else { return [] }
        switch draft.unit(scale: book.scale, existingCourseIDs: Set(book.units.flatMap { $0.courses.map(\.id) }), localizer) {
        case .failure(let problems):
            return problems.problems
        case .success(let unit):
            editor.endEditing(cancel: false)
            let before = book
            if let blockID = draft.addedToBlock, let b = book.blocks.firstIndex(where: { $0.id == blockID }) {
                book.units.append(unit)
                book.blocks[b].units.append(unit.id)
                added = (blockID, unit.id)
                recorded(from: before, .addUnit(unit.title), about: .unit(unit.id), structural: true)
            } else if let index = book.units.firstIndex(where: { $0.id == unit.id }) {
                book.units[index] = unit
                // Saving an unchanged unit is not a change to undo.
                if before.units[index] != unit { recorded(from: before, .editUnit(unit.title), about: .unit(unit.id), structural: true) }
            }
            return []
        }
    }

    /// Drops the draft: every change since `beginEditing`, adds and deletes included.
    public func cancelEdit() {
        editor.endEditing(cancel: true)
        blockEditor.endEditing(cancel: true)
        notifyChanged()
    }

    // MARK: Blocks

    /// The block being named on a copy (a new one, or a renamed one), if any.
    public private(set) var blockEditor = Editor<BlockForm>()

    /// Opens the block form: on block `id` to rename it, or on a new block when `id` is nil.
    public func beginEditingBlock(_ id: String?) {
        guard !isLoading else { return }
        let block = id.flatMap { id in book.blocks.first { $0.id == id } }
        if id != nil && block == nil { return }
        added = nil
        blockEditor.beginEditing(BlockForm(blockID: block?.id, name: block?.name ?? ""))
        notifyChanged()
    }

    public func updateBlockDraft(_ change: (inout BlockForm) -> Void) {
        blockEditor.update(change)
        notifyChanged()
    }

    /// Saves the block form: renames the block, or adds the new one at the end. Returns the
    /// problem (and keeps the form open) when the name is empty.
    public func commitBlockEdit() -> String? {
        guard let draft = blockEditor.draft else { return nil }
        let name = draft.name.trimmingSpaces
        guard !name.isEmpty else { return localizer.t("The block needs a name.") }
        // Two blocks of one name could not be told apart in the tree, the header or a form.
        if book.blocks.contains(where: { $0.id != draft.blockID && $0.name.lowercased() == name.lowercased() }) {
            return localizer.t("There is already a block named “{block}”.", ["block": name])
        }
        blockEditor.endEditing(cancel: false)
        let before = book
        if let id = draft.blockID, let b = book.blocks.firstIndex(where: { $0.id == id }) {
            guard book.blocks[b].name != name else { notifyChanged(); return nil }
            book.blocks[b].name = name
            recorded(from: before, .editBlock(name), about: .block(id), structural: true)
        } else {
            var n = book.blocks.count + 1
            while book.blocks.contains(where: { $0.id == "block\(n)" }) { n += 1 }
            book.blocks.append(GradeBlock(id: "block\(n)", name: name, units: []))
            added = ("block\(n)", nil)
            recorded(from: before, .addBlock(name), about: .block("block\(n)"), structural: true)
        }
        return nil
    }

    // MARK: Deleting

    /// What a deletion would take with it: the units (of a block: those in no other block), the
    /// courses and the marks. A deletion that loses marks asks first.
    public struct DeletionCost: Equatable, Sendable {
        public var units = 0
        public var courses = 0
        public var marks = 0
        public init(units: Int = 0, courses: Int = 0, marks: Int = 0) {
            self.units = units
            self.courses = courses
            self.marks = marks
        }
    }

    /// The units deleting block `id` takes with it: those listed in no other block.
    private func unitsOnlyIn(block id: String) -> [String] {
        guard let block = book.blocks.first(where: { $0.id == id }) else { return [] }
        let elsewhere = Set(book.blocks.filter { $0.id != id }.flatMap(\.units))
        return block.units.filter { !elsewhere.contains($0) }
    }

    private func cost(ofUnits ids: [String]) -> DeletionCost {
        var cost = DeletionCost()
        for id in ids {
            guard let unit = unit(id) else { continue }
            cost.units += 1
            cost.courses += unit.courses.count
            cost.marks += unit.courses.filter { $0.mark != nil }.count
        }
        return cost
    }

    public func deletionCost(ofBlock id: String) -> DeletionCost { cost(ofUnits: unitsOnlyIn(block: id)) }
    public func deletionCost(ofUnit id: String) -> DeletionCost { cost(ofUnits: [id]) }

    /// Deletes block `id` and the units listed in no other block (undoable).
    public func deleteBlock(_ id: String) {
        guard let b = book.blocks.firstIndex(where: { $0.id == id }) else { return }
        let before = book
        let gone = Set(unitsOnlyIn(block: id))
        let name = book.blocks[b].name
        book.blocks.remove(at: b)
        book.units.removeAll { gone.contains($0.id) }
        recorded(from: before, .deleteBlock(name), about: .block(id), structural: true)
    }

    /// Deletes unit `id` and its courses, from every block that lists it (undoable).
    public func deleteUnit(_ id: String) {
        guard let unit = unit(id) else { return }
        let before = book
        book.units.removeAll { $0.id == id }
        for b in book.blocks.indices { book.blocks[b].units.removeAll { $0 == id } }
        recorded(from: before, .deleteUnit(unit.title), about: .unit(id), structural: true)
    }

    /// Deletes course `id` and its mark (undoable).
    public func deleteCourse(_ id: String) {
        guard let (u, c) = location(ofCourse: id) else { return }
        let before = book
        let name = book.units[u].courses[c].name
        book.units[u].courses.remove(at: c)
        recorded(from: before, .deleteCourse(name), about: .course(id), structural: true)
    }

    // MARK: Undo

    /// Every change to the book in this run (marks, locks, clears, edits, additions, deletions).
    private var history = UndoHistory<GradeBook, GradeStep>()
    /// What the last undone or redone change was about (the screen selects it).
    public private(set) var lastSubject: GradeSubject?

    /// How many changes were made in this run (a form compares it to say whether it saved one).
    public private(set) var changeCount = 0
    /// The last change made (what `u` would undo).
    public var lastChange: GradeChange? { history.undoSteps.last?.change.change }

    /// Puts the book back as it was before the last change; returns that change (nil: none).
    @discardableResult
    public func undo() -> GradeChange? {
        history.undo().map { restore($0.before, $0.change) }
    }

    /// Makes the last undone change again; returns it (nil: none).
    @discardableResult
    public func redo() -> GradeChange? {
        history.redo().map { restore($0.after, $0.change) }
    }

    /// Puts `restored` in place after an undo or redo of `step` (saved and drawn as any change);
    /// returns the step's change.
    private func restore(_ restored: GradeBook, _ step: GradeStep) -> GradeChange {
        lastSubject = step.subject
        book = restored
        structureVersion += 1
        reindex()
        changed()
        return step.change
    }

    /// After an intent changed `book`: the step is kept for undo, then the book is saved.
    private func recorded(from before: GradeBook, _ change: GradeChange, about subject: GradeSubject, structural: Bool = false,
                          merging: (GradeChange) -> GradeChange? = { _ in nil }) {
        changeCount += 1
        history.record(from: before, to: book, GradeStep(change: change, subject: subject)) { last in
            last.subject == subject ? merging(last.change).map { GradeStep(change: $0, subject: subject) } : nil
        }
        if structural {
            structureVersion += 1
            reindex()
        }
        changed()
    }

    // MARK: Saving

    /// Sentences for the status line, each shown once (`takeNotices`): a grades file another
    /// program changed while the tab was open.
    private var notices: [String] = []

    /// The notices not yet shown; they are shown once.
    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// grades.json changed under the tab (`locker grades import`, an editor) and reads as
    /// `outcome`: the new file is what the tab shows from now on, and the book as it was here,
    /// with the change that was about to be saved, is kept beside it (by the writer, off the UI
    /// thread), so neither is lost. Undo starts afresh: its steps were of the book kept aside.
    private func takeFileChangedOnDisk(_ outcome: LoadOutcome<GradeBook>) {
        let mine = book
        let theirs: GradeBook
        switch outcome {
        case .loaded(let book):
            theirs = book
        case .missing:
            hasPendingSave = true
            return
        case .corrupt(let backup, let reason):
            // Unusable now (set aside by the load): the tab's own grades are written in its place.
            notices.append(localizer.t("grades.json was changed by another program into a file Locker cannot use ({reason}); it was kept as {backup}, and your grades were written again.",
                                       ["reason": reason.text(localizer), "backup": backup?.lastPathComponent ?? "—"]))
            hasPendingSave = true
            notifyChanged()
            return
        }
        book = theirs
        history = UndoHistory()
        lastSubject = nil
        structureVersion += 1
        reindex()
        results = computeResults()
        notifyChanged()
        runFileJob { { .keptAside($0.keepAside(mine, now: Date())) } }
    }

    /// After a change of the book: the averages once, then one notification.
    private func changed() {
        hasPendingSave = true
        results = computeResults()
        notifyChanged()
    }

    /// Writes a pending change (atomically): on a background thread when the view-model was
    /// given a `BackgroundWork`, else at once. The shell calls it once keys pause (and at quit),
    /// so holding an arrow key draws every step but writes the file once.
    public func savePending() {
        guard hasPendingSave, !isLoading else { return }
        hasPendingSave = false
        runFileJob { [unowned self] in
            let book = book
            return { try Self.save(book, to: $0) }
        }
    }

    /// Runs a job on grades.json, made when it starts (so it takes the book as it is then): on
    /// the writer's thread, one at a time, when the view-model has one (the app), else at once.
    private func runFileJob(_ make: @escaping () -> @Sendable (any Repository<GradeBook>) throws -> FileOutcome) {
        guard let writer else { return fileJobEnded(Result { try make()(repository) }) }
        let file = UncheckedSendable(repository)
        writer.request(makingWhenItStarts: {
            let job = make()
            return { _ in try job(file.value) }
        })
    }

    /// Writes `book`; when another program changed the file meanwhile, reads the new file
    /// instead (on the same thread, so the UI thread never reads it).
    private static func save(_ book: GradeBook, to repository: any Repository<GradeBook>) throws -> FileOutcome {
        do {
            try repository.save(book)
            return .saved
        } catch is FileChangedOnDisk {
            return .changedOnDisk(repository.load())
        }
    }

    /// Whether a write of grades.json is on its way.
    public var isSaving: Bool { writer?.isRunning ?? false }

    /// At quit: waits (a few seconds at most) for the write on its way and the next one.
    public func finishSaving() {
        work?.wait(until: { !self.isSaving }, seconds: 5)
    }

    /// What a job on grades.json did: a problem is shown until a write succeeds; a file another
    /// program changed meanwhile is taken, and this book kept beside it.
    private func fileJobEnded(_ result: Result<FileOutcome, Error>) {
        switch result {
        case .success(.saved):
            if saveProblem != nil { saveProblem = nil; notifyChanged() }
        case .success(.changedOnDisk(let outcome)):
            takeFileChangedOnDisk(outcome)
        case .success(.keptAside(let copy)):
            notices.append(copy.map {
                localizer.t("grades.json was changed by another program, so Locker now shows the new file; your marks as they were here are kept in {file}.",
                            ["file": $0.lastPathComponent])
            } ?? localizer.t("grades.json was changed by another program, so Locker now shows the new file; your last change could not be kept aside."))
            notifyChanged()
        case .failure(let error):
            saveProblem = localizer.t("Your grades could not be saved: {reason}. They stay in memory; the file keeps the last saved version.",
                                      ["reason": StorageError.explain(error, localizer)])
            notifyChanged()
        }
    }
}

/// A unit as the edit form holds it: text as typed, checked only when the edit is committed.
public struct UnitForm: Equatable, Sendable {
    public struct CourseRow: Equatable, Sendable {
        /// Empty for a course added in this edit.
        public var id: String
        public var name: String
        public var coefficient: String
        public var mark: Double?
        public var locked: Bool
    }

    public var unitID: String
    /// Set for a new unit: the block Enter adds it to.
    public var addedToBlock: String?
    public var code: Int
    public var professional: Bool
    public var name: String
    public var coefficient: String
    public var courses: [CourseRow]

    public init(_ unit: GradeUnit) {
        unitID = unit.id
        code = unit.code
        professional = unit.professional
        name = unit.name
        coefficient = NumberText.compact(unit.coefficient)
        courses = unit.courses.map { CourseRow(id: $0.id, name: $0.name, coefficient: NumberText.compact($0.coefficient), mark: $0.mark, locked: $0.locked) }
    }

    /// Whether the form is about a unit not in the book yet.
    public var isNew: Bool { addedToBlock != nil }

    /// Adds an ungraded course with coefficient 1 at the end.
    public mutating func addCourse(named name: String) {
        courses.append(CourseRow(id: "", name: name, coefficient: "1", mark: nil, locked: false))
    }

    /// Which field of the form a problem is about: the unit's name or coefficient, or a course row.
    public enum Field: Equatable, Sendable {
        case name, coefficient
        case courseName(Int), courseCoefficient(Int)
    }

    public struct Problem: Equatable, Sendable {
        public var field: Field
        public var message: String
    }

    public struct Problems: Error { public var problems: [Problem] }

    /// The unit this form describes, or every problem found.
    public func unit(scale: Double, existingCourseIDs: Set<String>, _ l: Localizer) -> Result<GradeUnit, Problems> {
        var problems: [Problem] = []
        let trimmedName = name.trimmingSpaces
        if trimmedName.isEmpty { problems.append(Problem(field: .name, message: l.t("The unit needs a name."))) }
        let unitCoefficient = UnitForm.coefficient(coefficient)
        if unitCoefficient == nil {
            problems.append(Problem(field: .coefficient, message: l.t("“{value}” is not a coefficient: write a number from 0.01 to 100, e.g. 6 or 1{separator}5.", ["value": coefficient, "separator": MeasureText.decimalSeparator(l)])))
        }
        var used = existingCourseIDs
        var built: [GradeCourse] = []
        for (index, row) in courses.enumerated() {
            let rowName = row.name.trimmingSpaces
            if rowName.isEmpty { problems.append(Problem(field: .courseName(index), message: l.t("Course {number} needs a name.", ["number": String(index + 1)]))) }
            guard let value = UnitForm.coefficient(row.coefficient) else {
                problems.append(Problem(field: .courseCoefficient(index), message: l.t("“{value}” is not a coefficient: write a number from 0.01 to 100, e.g. 6 or 1{separator}5.", ["value": row.coefficient, "separator": MeasureText.decimalSeparator(l)])))
                continue
            }
            var id = row.id
            if id.isEmpty {
                var n = index + 1
                while used.contains("\(unitID)-c\(n)") { n += 1 }
                id = "\(unitID)-c\(n)"
                used.insert(id)
            }
            built.append(GradeCourse(id: id, name: rowName, coefficient: value, mark: row.mark.map { min($0, scale) }, locked: row.locked))
        }
        guard problems.isEmpty, let unitCoefficient else { return .failure(Problems(problems: problems)) }
        return .success(GradeUnit(id: unitID, code: code, name: trimmedName, coefficient: unitCoefficient, professional: professional, courses: built))
    }

    /// The coefficients a unit or a course may have.
    public static let coefficientRange = 0.01...100.0

    /// A coefficient typed with a point or a comma; nil unless it is a number in
    /// `coefficientRange` with at most two decimals.
    static func coefficient(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        guard isCoefficientDraft(trimmed), let value = Double(trimmed.replacing(",", with: ".")),
              coefficientRange.contains(value) else { return nil }
        return value
    }

    /// Whether `text` can still become a coefficient as it is typed: digits, one decimal
    /// separator (point or comma) with at most two decimals after it, and not above the range.
    public static func isCoefficientDraft(_ text: String) -> Bool {
        let separators = text.filter { $0 == "." || $0 == "," }
        guard separators.count <= 1, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }) else { return false }
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
        if parts.count == 2 && parts[1].count > 2 { return false }
        guard let whole = Int(parts.first.map(String.init) ?? ""), !(parts.first ?? "").isEmpty else { return true }
        return Double(whole) <= coefficientRange.upperBound
    }
}

/// A block as its form holds it: the name as typed; no id for a new block.
public struct BlockForm: Equatable, Sendable {
    public var blockID: String?
    public var name: String

    public init(blockID: String?, name: String) {
        self.blockID = blockID
        self.name = name
    }
}
