/// View-models of one block, unit or course of the Grades tab. Each observes the root
/// `GradesViewModel` and keeps a copy of its own plain struct; when a root change leaves that
/// struct (and so its results) as it was, its observers are not called.
public final class BlockViewModel: ViewModel {
    public let id: String
    private unowned let root: GradesViewModel
    private var token: ObservationToken?
    public private(set) var block: GradeBlock
    public private(set) var average: Double?

    init(block: GradeBlock, root: GradesViewModel) {
        id = block.id
        self.root = root
        self.block = block
        average = root.blockAverage(block.id)
        super.init()
        token = ObservationToken.combined(Set(block.units).map { root.observe(unit: $0) { [weak self] in self?.refresh() } })
    }

    public var name: String { block.name }
    public var standing: GradeStanding { root.book.standing(average) }
    public var passes: Bool { standing == .pass }

    private func refresh() {
        guard let current = root.book.blocks.first(where: { $0.id == id }) else { return }
        let newAverage = root.blockAverage(id)
        guard current != block || newAverage != average else { return }
        block = current
        average = newAverage
        notifyChanged()
    }
}

public final class UnitViewModel: ViewModel {
    public let id: String
    private unowned let root: GradesViewModel
    private var token: ObservationToken?
    public private(set) var unit: GradeUnit

    init(unit: GradeUnit, root: GradesViewModel) {
        id = unit.id
        self.root = root
        self.unit = unit
        super.init()
        token = root.observe(unit: unit.id) { [weak self] in self?.refresh() }
    }

    /// The unit's average, as the root computed it once after the last change.
    public var average: Double? { root.unitAverage(id) }
    public var standing: GradeStanding { root.book.standing(average) }
    public var title: String { "UE\(unit.code) \(unit.name)" }

    /// Starts editing this unit on a copy.
    public func edit() { root.beginEditing(id) }

    private func refresh() {
        guard let current = root.unit(id), current != unit else { return }
        unit = current
        notifyChanged()
    }
}

public final class CourseViewModel: ViewModel {
    public let id: String
    public let unitID: String
    private unowned let root: GradesViewModel
    private var token: ObservationToken?
    public private(set) var course: GradeCourse

    init(course: GradeCourse, unitID: String, root: GradesViewModel) {
        id = course.id
        self.unitID = unitID
        self.root = root
        self.course = course
        super.init()
        token = root.observe(unit: unitID) { [weak self] in self?.refresh() }
    }

    public var standing: GradeStanding { root.book.standing(course.mark) }
    public var scale: Double { root.book.scale }

    @discardableResult public func nudge(by delta: Double) -> GradesViewModel.Outcome { root.nudge(id, by: delta) }
    @discardableResult public func toggleLock() -> GradesViewModel.Outcome { root.toggleLock(id) }
    @discardableResult public func clear() -> GradesViewModel.Outcome { root.clear(id) }

    private func refresh() {
        guard let current = root.course(id), current != course else { return }
        course = current
        notifyChanged()
    }
}

extension GradesViewModel {
    /// View-models for every block, unit and course of the current structure. Rebuild them when
    /// `structureVersion` changes.
    public func makeItemViewModels() -> (blocks: [BlockViewModel], units: [String: UnitViewModel], courses: [String: CourseViewModel]) {
        let blocks = book.blocks.map { BlockViewModel(block: $0, root: self) }
        var units: [String: UnitViewModel] = [:]
        var courses: [String: CourseViewModel] = [:]
        for unit in book.units {
            units[unit.id] = UnitViewModel(unit: unit, root: self)
            for course in unit.courses { courses[course.id] = CourseViewModel(course: course, unitID: unit.id, root: self) }
        }
        return (blocks, units, courses)
    }
}
