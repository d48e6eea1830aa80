/// One change to the grade book, as the status line names it when it is undone or redone.
public enum GradeChange: Equatable, Sendable {
    /// A mark moved by the slider keys, from `from` (nil: not graded) to `to`.
    case mark(course: String, courseID: String, from: Double?, to: Double)
    /// A mark cleared (not graded again).
    case clear(course: String, from: Double)
    case lock(course: String, locked: Bool)
    case editUnit(String)
    case addUnit(String)
    case deleteUnit(String)
    case deleteCourse(String)
    case addBlock(String)
    case editBlock(String)
    case deleteBlock(String)

    /// "mark of “Anatomy”: 12.00 → 12.50", in the interface language.
    public func text(_ l: Localizer) -> String {
        switch self {
        case .mark(let course, _, let from, let to):
            return l.t("mark of “{course}”: {from} → {to}",
                       ["course": course, "from": GradeFormat.mark(from, l), "to": GradeFormat.mark(to, l)])
        case .clear(let course, let from):
            return l.t("clearing of “{course}” ({mark})", ["course": course, "mark": GradeFormat.mark(from, l)])
        case .lock(let course, let locked):
            return locked ? l.t("lock of “{course}”", ["course": course]) : l.t("unlock of “{course}”", ["course": course])
        case .editUnit(let title): return l.t("edit of unit “{unit}”", ["unit": title])
        case .addUnit(let title): return l.t("new unit “{unit}”", ["unit": title])
        case .deleteUnit(let title): return l.t("deletion of unit “{unit}”", ["unit": title])
        case .deleteCourse(let name): return l.t("deletion of course “{course}”", ["course": name])
        case .addBlock(let name): return l.t("new block “{block}”", ["block": name])
        case .editBlock(let name): return l.t("renaming of block “{block}”", ["block": name])
        case .deleteBlock(let name): return l.t("deletion of block “{block}”", ["block": name])
        }
    }

    /// The status line once the change is undone: a mark says the value it has again first
    /// ("“Anatomy” is back to 12.00 (it was 12.50)."), so it cannot be read as the new one.
    public func undoneText(_ l: Localizer) -> String {
        guard case .mark(let course, _, let from, let to) = self else { return l.t("Undone: {change}.", ["change": text(l)]) }
        return from == nil
            ? l.t("Undone: “{course}” is not graded again (it was {to}).", ["course": course, "to": GradeFormat.mark(to, l)])
            : l.t("Undone: “{course}” is back to {from} (it was {to}).", ["course": course, "from": GradeFormat.mark(from, l), "to": GradeFormat.mark(to, l)])
    }

    /// Two moves of the same mark in a row make one step, from the first mark to the last.
    func joined(after earlier: GradeChange) -> GradeChange? {
        guard case .mark(let course, let id, _, let to) = self, case .mark(_, let earlierID, let from, _) = earlier,
              id == earlierID else { return nil }
        return .mark(course: course, courseID: id, from: from, to: to)
    }
}

/// What a change was about, so the screen can show it again once it is undone or redone.
public enum GradeSubject: Equatable, Sendable {
    case course(String), unit(String), block(String)
}

/// One step of the book's undo history: the change and what it was about.
struct GradeStep {
    var change: GradeChange
    var subject: GradeSubject
}
