import Foundation
import XCTest
@testable import LockerKit

/// The bundled curriculum with marks set by course name.
func curriculum(_ marks: [String: Double] = [:]) throws -> GradeBook {
    var book = try GradeBook.load(from: packageRoot.appendingPathComponent("Data/grades/grades.json"), .english)
    for u in book.units.indices {
        for c in book.units[u].courses.indices {
            if let mark = marks[book.units[u].courses[c].name] { book.units[u].courses[c].mark = mark }
        }
    }
    return book
}

/// Every course of the units with these codes set to one mark.
func setUnits(_ book: inout GradeBook, codes: Set<Int>, to mark: Double?) {
    for u in book.units.indices where codes.contains(book.units[u].code) {
        for c in book.units[u].courses.indices { book.units[u].courses[c].mark = mark }
    }
}

final class GradeAverageTests: XCTestCase {
    func testBundledCurriculumHasTheSevenUnitsAndTwoBlocks() throws {
        let book = try curriculum()
        XCTAssertEqual(book.units.map(\.coefficient), [6, 6, 6, 9, 9, 9, 15])
        XCTAssertEqual(book.units.flatMap(\.courses).count, 24)
        XCTAssertEqual(book.blocks.map(\.id), ["total", "project"])
        XCTAssertTrue(book.units.flatMap(\.courses).allSatisfy { $0.mark == nil && !$0.locked })
        XCTAssertNil(book.average(ofBlock: book.blocks[0]), "nothing graded: no average, never 0")
    }

    func testUnitAverageSkipsUngradedCourses() throws {
        let book = try curriculum(["Processus de développement": 19.04, "Programmation Objets": 9.08,
                                   "Qualité de développement": 13, "Remise à niveau objets": 12])
        XCTAssertEqual(book.average(ofUnit: book.units[0])!, 270.88 / 22, accuracy: 1e-9)
        XCTAssertEqual(GradeFormat.mark(book.average(ofUnit: book.units[0])), "12.31")
        let one = try curriculum(["Programmation Objets": 12])
        XCTAssertEqual(one.average(ofUnit: one.units[0]), 12, "ungraded courses are skipped with their weight")
        XCTAssertNil(one.average(ofUnit: one.units[1]))
        XCTAssertEqual(one.average(ofBlock: one.blocks[0]), 12, "ungraded units are skipped in the block")
    }

    func testDecimalCoefficientsAndEmptyUnits() {
        let book = GradeBook(units: [
            GradeUnit(id: "a", code: 1, name: "A", coefficient: 1.5, courses: [
                GradeCourse(id: "a1", name: "x", coefficient: 0.25, mark: 20), GradeCourse(id: "a2", name: "y", coefficient: 0.75, mark: 8)]),
            GradeUnit(id: "b", code: 2, name: "B", coefficient: 2.5, courses: []),
            GradeUnit(id: "c", code: 3, name: "C", coefficient: 0.5, courses: [GradeCourse(id: "c1", name: "z", coefficient: 2, mark: 15)]),
        ], blocks: [GradeBlock(id: "all", name: "All", units: ["a", "b", "c"])])
        XCTAssertEqual(book.average(ofUnit: book.units[0]), 11)
        XCTAssertNil(book.average(ofUnit: book.units[1]))
        XCTAssertEqual(book.average(ofBlock: book.blocks[0])!, (1.5 * 11 + 0.5 * 15) / 2, accuracy: 1e-12)
    }

    func testPassRules() throws {
        var book = try curriculum()
        setUnits(&book, codes: [1, 2, 3, 4, 5, 6, 7], to: 10)
        XCTAssertTrue(book.passed, "exactly the pass mark passes")
        XCTAssertEqual(book.outlook().year.status, .passed)
        setUnits(&book, codes: [1, 2, 3, 4, 5], to: 12)
        setUnits(&book, codes: [6], to: 12)
        setUnits(&book, codes: [7], to: 8)
        XCTAssertEqual(book.average(ofBlock: book.blocks[0])!, 11, accuracy: 1e-9)
        XCTAssertEqual(book.average(ofBlock: book.blocks[1])!, 9.5, accuracy: 1e-9)
        XCTAssertTrue(book.passes(book.blocks[0]))
        XCTAssertFalse(book.passes(book.blocks[1]))
        XCTAssertFalse(book.passed, "every block must pass")
        XCTAssertEqual(book.outlook().blocks.map(\.status), [.passed, .failed])
        XCTAssertEqual(book.outlook().year.status, .failed, "a complete block below the pass mark cannot pass any more")
        XCTAssertEqual(GradeStanding(average: 7.99, passMark: 10), .fail)
        XCTAssertEqual(GradeStanding(average: 8, passMark: 10), .atRisk)
        XCTAssertEqual(GradeFormat.mark(9.996), "9.99", "a shown 10.00 always passes")
    }
}

/// "Passed" only when it is true (issue 28): a block or the year is passed when every course it
/// counts is marked; before that it is secured, on track, at risk or out of reach.
final class GradeStatusTests: XCTestCase {
    func testOneMarkOutOf24IsNotAPassedYear() throws {
        var book = try curriculum()
        let stage = try XCTUnwrap(book.units.first { $0.code == 7 }?.courses.first)
        XCTAssertEqual(book.outlook().year.status, .notStarted)
        for u in book.units.indices { for c in book.units[u].courses.indices where book.units[u].courses[c].id == stage.id { book.units[u].courses[c].mark = 10 } }
        let outlook = book.outlook()
        XCTAssertFalse(book.passed)
        XCTAssertEqual(outlook.blocks.map(\.status), [.onTrack, .onTrack], "the graded average passes, marks are missing")
        XCTAssertEqual(outlook.year.status, .onTrack)
        XCTAssertEqual(outlook.year.needed!, book.needs().needed!, accuracy: 1e-9, "the same mark as `grades need`")
        XCTAssertEqual(GradeStatus.onTrack.sentence(needed: outlook.year.needed, .english),
                       "on track — needs \(GradeFormat.needed(outlook.year.needed!)) in every ungraded course")
    }

    /// Every course marked 10, one after the other: never passed before the last.
    func testTheYearIsPassedOnlyAtTheLastMark() throws {
        var book = try curriculum()
        let ids = book.units.flatMap { $0.courses.map(\.id) }
        XCTAssertEqual(ids.count, 24)
        for (index, id) in ids.enumerated() {
            for u in book.units.indices { for c in book.units[u].courses.indices where book.units[u].courses[c].id == id { book.units[u].courses[c].mark = 10 } }
            let status = book.outlook().year.status
            if index < ids.count - 1 {
                XCTAssertEqual(status, .onTrack, "after \(index + 1) marks")
            } else {
                XCTAssertEqual(status, .passed, "all 24 marked")
            }
        }
    }

    func testSecuredAtRiskOutOfReach() throws {
        var book = try curriculum()
        setUnits(&book, codes: [1, 2, 3, 4, 5, 6], to: 20)
        // Stage ungraded: Total passes even with 0 there; the professional block needs 4.
        var outlook = book.outlook()
        XCTAssertEqual(outlook.blocks.map(\.status), [.secured, .onTrack])
        XCTAssertEqual(outlook.year.status, .onTrack)
        XCTAssertEqual(outlook.year.needed!, 4, accuracy: 1e-9)
        setUnits(&book, codes: [6], to: 2)
        outlook = book.outlook()
        XCTAssertEqual(outlook.blocks[1].status, .atRisk, "the Projet mark alone is below the pass mark")
        setUnits(&book, codes: [1, 2, 3, 4, 5, 6], to: 0)
        setUnits(&book, codes: [7], to: nil)
        outlook = book.outlook()
        XCTAssertEqual(outlook.year.status, .outOfReach)
        XCTAssertNil(outlook.year.needed)
        XCTAssertEqual(GradeStatus.year(of: [.passed, .secured]), .secured)
        XCTAssertEqual(GradeStatus.year(of: [.passed, .notStarted]), .onTrack)
        XCTAssertEqual(GradeStatus.year(of: []), .notStarted)
    }
}

final class GradeNeedsTests: XCTestCase {
    func testWorkedExampleNeedsTheLargestBlockMark() throws {
        var book = try curriculum()
        setUnits(&book, codes: [1, 2, 3, 4, 5], to: 12)
        setUnits(&book, codes: [6], to: 8)
        let needs = book.needs()
        XCTAssertEqual(needs.blocks[0].status, .reachable)
        XCTAssertEqual(needs.blocks[0].needed!, 6.4, accuracy: 1e-9)
        XCTAssertEqual(needs.blocks[1].needed!, 11.2, accuracy: 1e-9)
        XCTAssertEqual(needs.status, .reachable)
        XCTAssertEqual(needs.needed!, 11.2, accuracy: 1e-9)
        // Check by giving the answer: both blocks pass at 11.2, not at 11.1.
        setUnits(&book, codes: [7], to: 11.2)
        XCTAssertTrue(book.passed)
        setUnits(&book, codes: [7], to: 11.1)
        XCTAssertFalse(book.passed)
    }

    func testNothingGradedNeedsThePassMark() throws {
        let needs = try curriculum().needs()
        XCTAssertEqual(needs.needed!, 10, accuracy: 1e-9)
        XCTAssertEqual(needs.blocks.map(\.status), [.reachable, .reachable])
    }

    func testSecuredAndImpossible() throws {
        var book = try curriculum()
        setUnits(&book, codes: [1, 2, 3, 4, 5, 6], to: 20)
        setUnits(&book, codes: [7], to: nil)
        // Stage (15 of 24) ungraded, Projet 20: the professional block needs (240 − 180)/15 = 4.
        XCTAssertEqual(book.needs().blocks[1].needed!, 4, accuracy: 1e-9)
        XCTAssertEqual(book.needs().blocks[0].status, .secured, "Total passes even with 0 in Stage")
        XCTAssertEqual(book.needs().blocks[0].needed, 0)
        setUnits(&book, codes: [6], to: 0)
        XCTAssertEqual(book.needs().blocks[1].needed!, 16, accuracy: 1e-9, "Projet 0: Stage needs 240/15")
    }

    func testImpossibleWhenTheScaleIsNotEnough() throws {
        var book = try curriculum()
        setUnits(&book, codes: [1, 2, 3, 4, 5, 7], to: 0)
        setUnits(&book, codes: [6], to: nil)
        let needs = book.needs()
        XCTAssertEqual(needs.blocks[1].status, .impossible)
        XCTAssertNil(needs.blocks[1].needed)
        XCTAssertEqual(needs.blocks[1].unbounded!, 240 / 9, accuracy: 1e-9)
        XCTAssertEqual(needs.status, .impossible)
        XCTAssertNil(needs.needed)
    }

    func testSharedUnitsAndLeverage() throws {
        var book = try curriculum()
        setUnits(&book, codes: [1, 2, 3, 4, 5, 6], to: 10)
        let needs = book.needs()
        // Stage is in both blocks: one more point there raises Total by 15/60 and Projet/Stage by 15/24.
        let stage = book.units[6].courses[0].id
        let effects = needs.leverage.filter { $0.courseID == stage }
        XCTAssertEqual(effects.count, 2)
        XCTAssertEqual(effects[0].pointsPerPoint, 15.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(effects[1].pointsPerPoint, 15.0 / 24, accuracy: 1e-12)
        XCTAssertEqual(needs.blocks.map(\.needed), [10, 10])
    }
}

final class GradesViewModelTests: XCTestCase {
    func makeModel(_ dir: URL, defaults: GradeBook? = nil) throws -> GradesViewModel {
        GradesViewModel(localizer: .english, repository: GradesViewModel.repository(dir.appendingPathComponent("grades.json"), .english),
                        defaults: try defaults ?? curriculum())
    }

    /// The app's Grades tab reads and writes grades.json on another core: the first frame does not
    /// wait for a large book, nothing is written before the book has arrived, and a key never
    /// waits for a write.
    func testTheBookIsReadAndWrittenOffTheUIThreadAndNothingIsSavedBeforeItArrives() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("grades.json")
        var stored = try curriculum()
        stored.units[0].courses[0].mark = 13.5
        try GradesViewModel.repository(file, .english).save(stored)
        let repository = ThreadRecordingRepository(GradesViewModel.repository(file, .english))
        let work = BackgroundWork()
        let model = GradesViewModel(localizer: .english, repository: repository, work: work,
                                    defaultsFile: packageRoot.appendingPathComponent("Data/grades/grades.json"))
        var told = 0
        let token = model.observe { told += 1 }
        XCTAssertTrue(model.isLoading)
        XCTAssertTrue(model.book.units.isEmpty, "nothing is shown before the file is read")
        model.beginEditingBlock(nil)
        XCTAssertFalse(model.isEditing, "a block cannot be added to a book not read yet")
        model.savePending()
        XCTAssertEqual(repository.saves, 0)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.book, stored)
        XCTAssertEqual(model.course(stored.units[0].courses[0].id)?.mark, 13.5)
        XCTAssertEqual(told, 1, "the screen is told once, when the book arrives")
        XCTAssertEqual(repository.loads, 1)
        XCTAssertEqual(repository.loadsOnMainThread, 0)
        XCTAssertEqual(repository.saves, 0, "reading writes nothing")

        // A change is written on another core too, and at quit the app waits for it.
        let id = stored.units[0].courses[0].id
        XCTAssertEqual(model.nudge(id, by: 0.5), .changed)
        model.savePending()
        XCTAssertTrue(model.isSaving)
        model.finishSaving()
        XCTAssertFalse(model.isSaving)
        XCTAssertEqual(repository.saves, 1)
        XCTAssertEqual(repository.savesOnMainThread, 0)
        XCTAssertEqual(try GradeBook.load(from: file, .english).units[0].courses[0].mark, 14)
        withExtendedLifetime(token) {}
    }

    /// grades.json changed by another program while the tab was open: the save that finds it,
    /// the read of the new file and the copy of the tab's own book kept beside it all happen on
    /// another core, and the tab then shows the new file and says where its own marks went.
    func testAFileChangedOnDiskIsReadAndTheTabsBookKeptAsideOffTheUIThread() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("grades.json")
        let stored = try curriculum()
        try GradesViewModel.repository(file, .english).save(stored)
        let repository = ThreadRecordingRepository(GradesViewModel.repository(file, .english))
        let work = BackgroundWork()
        let model = GradesViewModel(localizer: .english, repository: repository, work: work,
                                    defaultsFile: packageRoot.appendingPathComponent("Data/grades/grades.json"))
        XCTAssertTrue(work.waitUntilIdle())
        let id = stored.units[0].courses[0].id
        XCTAssertEqual(model.nudge(id, by: 0.5), .changed)
        model.savePending()
        model.finishSaving()

        // Another program writes the file (a new inode), then the tab saves a step of its own.
        var theirs = stored
        theirs.units[0].courses[1].mark = 15.5
        try GradesViewModel.repository(file, .english).save(theirs)
        XCTAssertEqual(model.nudge(id, by: 0.5), .changed)
        let mine = model.book
        model.savePending()
        model.finishSaving()
        XCTAssertTrue(work.waitUntilIdle())

        XCTAssertEqual(model.book, theirs, "the tab shows the new file")
        XCTAssertEqual(repository.loadsOnMainThread, 0, "the new file is read on another core")
        XCTAssertEqual(repository.keptAside, 1)
        XCTAssertEqual(repository.keptAsideOnMainThread, 0, "the tab's own book is kept aside on another core")
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("grades.json.mine-") }
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(try GradeBook.load(from: dir.appendingPathComponent(kept[0]), .english), mine, "with the last step in it")
        let notices = model.takeNotices()
        XCTAssertEqual(notices.count, 1)
        XCTAssertTrue(notices.first?.contains(kept[0]) ?? false, "the notice names the copy: \(notices)")
        XCTAssertEqual(try GradeBook.load(from: file, .english), theirs, "the other program's file is not written over")
    }

    /// A grades.json that breaks a rule, read in the background: kept aside, the curriculum
    /// shown, and the reason (in the interface language) names the field.
    func testABadFileReadInTheBackgroundIsKeptAsideWithItsReason() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("grades.json")
        var broken = try curriculum()
        broken.units[1].courses[0].mark = 99
        try JSONRepository<GradeBook>(url: file).save(broken)
        let french = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .fr)
        let work = BackgroundWork()
        let model = GradesViewModel(localizer: french, repository: GradesViewModel.repository(file, french.snapshot()), work: work,
                                    defaultsFile: packageRoot.appendingPathComponent("Data/grades/grades.json"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.book, try curriculum())
        let problem = try XCTUnwrap(model.loadProblem)
        XCTAssertTrue(problem.contains("units[1].courses[0].mark"), problem)
        XCTAssertTrue(problem.contains("grades.json"), problem)
        XCTAssertFalse(problem.contains("could not be used"), "in French: \(problem)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the bad file was kept aside")
    }

    /// Without a grades.json, the background read falls back on the bundled curriculum.
    func testABackgroundReadWithoutAFileShowsTheBundledCurriculum() throws {
        let dir = try makeTemporaryDirectory(self)
        let work = BackgroundWork()
        let model = GradesViewModel(localizer: .english, repository: GradesViewModel.repository(dir.appendingPathComponent("grades.json"), .english),
                                    work: work, defaultsFile: packageRoot.appendingPathComponent("Data/grades/grades.json"))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(model.book, try curriculum())
        XCTAssertFalse(model.hasPendingSave, "opening the tab writes nothing")
    }

    func testSlidersLocksAndClearing() throws {
        let dir = try makeTemporaryDirectory(self)
        let model = try makeModel(dir)
        let id = model.book.units[0].courses[0].id
        XCTAssertEqual(model.nudge(id, by: 0.5), .changed)
        XCTAssertEqual(model.course(id)?.mark, 10, "an ungraded course starts at the pass mark")
        model.nudge(id, by: 0.5); model.nudge(id, by: 0.1); model.nudge(id, by: 0.1)
        XCTAssertEqual(model.course(id)?.mark, 10.7)
        XCTAssertEqual(model.toggleLock(id), .changed)
        XCTAssertEqual(model.nudge(id, by: -0.5), .locked)
        XCTAssertEqual(model.clear(id), .locked)
        XCTAssertEqual(model.course(id)?.mark, 10.7, "a locked mark does not move")
        model.toggleLock(id)
        for _ in 0..<30 { model.nudge(id, by: 0.5) }
        XCTAssertEqual(model.course(id)?.mark, 20, "clamped to the scale")
        XCTAssertEqual(model.nudge(id, by: 0.5), .atLimit)
        XCTAssertEqual(model.clear(id), .changed)
        XCTAssertNil(model.course(id)?.mark)
        XCTAssertEqual(model.toggleLock(id), .needsMark, "an ungraded course cannot be locked")
    }

    func testAMarkChangeIsOneNotificationWithTheAveragesAlreadyComputed() throws {
        let model = try makeModel(try makeTemporaryDirectory(self))
        let first = model.book.units[0].courses[0].id
        var calls = 0
        var seen: (unit: Double?, block: Double?) = (nil, nil)
        let token = model.observe {
            calls += 1
            seen = (model.unitAverage(model.book.units[0].id), model.blockAverage(model.book.blocks[0].id))
        }
        model.nudge(first, by: 0.5)
        XCTAssertEqual(calls, 1, "one notification per change")
        XCTAssertEqual(seen.unit, 10, "observers read averages computed before they are called")
        XCTAssertEqual(seen.block, 10)
        XCTAssertEqual(model.nudge(first, by: 0), .atLimit, "no change, no notification")
        XCTAssertEqual(calls, 1)
        _ = token
    }

    func testEditingOnACopyCancelsEverything() throws {
        let dir = try makeTemporaryDirectory(self)
        let model = try makeModel(dir)
        let before = model.book
        model.beginEditing("ue1")
        model.updateDraft { form in
            form.name = "Renamed"
            form.courses.remove(at: 0)
            form.addCourse(named: "New one")
        }
        XCTAssertEqual(model.book, before, "the book does not change while editing")
        model.cancelEdit()
        XCTAssertEqual(model.book, before)
        XCTAssertFalse(model.isEditing)
    }

    func testCommitValidatesThenReplacesTheUnitAndSaves() throws {
        let dir = try makeTemporaryDirectory(self)
        let model = try makeModel(dir)
        model.beginEditing("ue1")
        model.updateDraft { form in
            form.coefficient = "-2"
            form.courses[1].name = "  "
            form.addCourse(named: "Kotlin")
            form.courses[form.courses.count - 1].coefficient = "1,5"
        }
        let problems = model.commitEdit()
        XCTAssertEqual(problems.map(\.field), [.coefficient, .courseName(1)])
        XCTAssertTrue(model.isEditing, "invalid edits stay in the form")
        model.savePending()
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("grades.json").path),
                       "invalid edits never reach the file")
        model.updateDraft { form in
            form.coefficient = "7.5"
            form.courses[1].name = "Programmation objet"
        }
        XCTAssertEqual(model.commitEdit(), [])
        model.savePending()
        let saved = try GradeBook.load(from: dir.appendingPathComponent("grades.json"), .english)
        XCTAssertEqual(saved.units[0].coefficient, 7.5)
        XCTAssertEqual(saved.units[0].courses.last?.name, "Kotlin")
        XCTAssertEqual(saved.units[0].courses.last?.coefficient, 1.5)
        XCTAssertEqual(Set(saved.units.flatMap { $0.courses.map(\.id) }).count, 25, "the new course gets a unique id")
    }

    /// Issue 28, item 3: every change to the book in this run can be undone and redone; holding
    /// an arrow key is one step; a new change after an undo drops what could be redone.
    func testEveryChangeUndoesAndRedoes() throws {
        let dir = try makeTemporaryDirectory(self)
        let model = try makeModel(dir)
        let original = model.book
        XCTAssertNil(model.undo(), "nothing to undo at the start")
        let id = model.book.units[0].courses[0].id
        for _ in 0..<5 { model.nudge(id, by: 0.5) }           // — → 10 → 12
        model.toggleLock(id)
        model.toggleLock(id)
        model.clear(id)
        model.beginEditing("ue2")
        model.updateDraft { $0.name = "Réseaux avancés"; $0.courses.removeAll() }
        XCTAssertEqual(model.commitEdit(), [])
        model.deleteUnit("ue3")
        model.deleteBlock("project")
        let changed = model.book
        XCTAssertEqual(model.undo(), .deleteBlock("Projet/Stage"))
        XCTAssertEqual(model.undo(), .deleteUnit("UE3 Insertion Professionnelle"))
        XCTAssertEqual(model.undo(), .editUnit("UE2 Réseaux avancés"))
        XCTAssertEqual(model.unit("ue2")?.courses.count, 4, "the edit's deleted courses are back")
        XCTAssertEqual(model.undo(), .clear(course: "Processus de développement", from: 12))
        XCTAssertEqual(model.undo(), .lock(course: "Processus de développement", locked: false))
        XCTAssertEqual(model.undo(), .lock(course: "Processus de développement", locked: true))
        XCTAssertEqual(model.undo(), .mark(course: "Processus de développement", courseID: id, from: nil, to: 12),
                       "five steps of the same mark undo as one")
        XCTAssertNil(model.undo())
        XCTAssertEqual(model.book, original)
        XCTAssertEqual(model.undo(), nil)
        for _ in 0..<7 { XCTAssertNotNil(model.redo()) }
        XCTAssertNil(model.redo())
        XCTAssertEqual(model.book, changed)
        model.savePending()
        XCTAssertEqual(try GradeBook.load(from: dir.appendingPathComponent("grades.json"), .english), changed, "undo and redo are saved")
        model.undo()
        model.nudge(model.book.units[0].courses[1].id, by: 0.5)
        XCTAssertNil(model.redo(), "a new change after an undo ends what could be redone")
        XCTAssertEqual(GradeChange.mark(course: "A", courseID: "a", from: nil, to: 12.5).text(.english), "mark of “A”: — → 12.50")
    }

    /// Issue 28, item 2: units and blocks are added and deleted in the tab, on a copy for
    /// additions (Esc drops them), and say what a deletion takes with it.
    func testUnitsAndBlocksAreAddedAndDeleted() throws {
        let dir = try makeTemporaryDirectory(self)
        let model = try makeModel(dir)
        model.beginEditingBlock(nil)
        model.updateBlockDraft { $0.name = "  " }
        XCTAssertEqual(model.commitBlockEdit(), "The block needs a name.")
        model.updateBlockDraft { $0.name = "Langues" }
        XCTAssertNil(model.commitBlockEdit())
        let block = try XCTUnwrap(model.book.blocks.last)
        XCTAssertEqual(block.name, "Langues")
        XCTAssertEqual(model.added?.block, block.id)
        model.beginAddingUnit(toBlock: block.id)
        model.updateDraft { $0.name = "Anglais"; $0.coefficient = "2,5"; $0.addCourse(named: "Oral") }
        model.cancelEdit()
        XCTAssertEqual(model.book.units.count, 7, "Esc drops a new unit")
        model.beginAddingUnit(toBlock: block.id)
        XCTAssertEqual(model.editor.draft?.code, 8)
        model.updateDraft { $0.name = "Anglais"; $0.coefficient = "2,5"; $0.addCourse(named: "Oral") }
        XCTAssertEqual(model.commitEdit(), [])
        let unit = try XCTUnwrap(model.book.units.last)
        XCTAssertEqual(unit.title, "UE8 Anglais")
        XCTAssertEqual(unit.coefficient, 2.5)
        XCTAssertEqual(model.book.blocks.last?.units, [unit.id])
        XCTAssertEqual(model.added?.unit, unit.id)
        model.nudge(unit.courses[0].id, by: 0.5)
        XCTAssertEqual(model.deletionCost(ofBlock: block.id), .init(units: 1, courses: 1, marks: 1))
        XCTAssertEqual(model.deletionCost(ofBlock: "project"), .init(), "its units are also in Total")
        model.deleteBlock(block.id)
        XCTAssertNil(model.unit(unit.id), "a unit in no other block goes with its block")
        model.deleteBlock("project")
        XCTAssertNotNil(model.unit("ue6"), "units still in another block stay")
        model.deleteUnit("ue6")
        XCTAssertFalse(model.book.blocks[0].units.contains("ue6"), "a deleted unit leaves every block")
        model.savePending()
        XCTAssertNoThrow(try GradeBook.load(from: dir.appendingPathComponent("grades.json"), .english), "the saved book is valid")
    }

    func testPersistenceRoundTripAndFirstStartWritesNothingUntilAChange() throws {
        let dir = try makeTemporaryDirectory(self)
        let model = try makeModel(dir)
        XCTAssertFalse(model.hasPendingSave, "the bundled curriculum is shown; nothing is written yet")
        let id = model.book.units[2].courses[1].id
        model.nudge(id, by: 0.5)
        model.toggleLock(id)
        model.savePending()
        let text = try String(contentsOf: dir.appendingPathComponent("grades.json"), encoding: .utf8)
        XCTAssertTrue(text.contains("\"mark\" : null"), "ungraded marks are written as null")
        let again = try makeModel(dir)
        XCTAssertEqual(again.course(id)?.mark, 10)
        XCTAssertEqual(again.course(id)?.locked, true)
        XCTAssertNil(again.loadProblem)
    }

    func testBadFilesAreKeptAsideWithTheFieldNamed() throws {
        let cases: [(String, (inout [String: Any]) -> Void, String)] = [
            ("version", { $0["version"] = 2 }, "version"),
            ("negative coefficient", { root in
                var units = root["units"] as! [[String: Any]]; units[1]["coefficient"] = -3; root["units"] = units }, "units[1].coefficient"),
            ("mark above scale", { root in
                var units = root["units"] as! [[String: Any]]; var courses = units[0]["courses"] as! [[String: Any]]
                courses[2]["mark"] = 23; units[0]["courses"] = courses; root["units"] = units }, "units[0].courses[2].mark"),
            ("unknown unit", { root in
                var blocks = root["blocks"] as! [[String: Any]]; blocks[1]["units"] = ["ue6", "ue9"]; root["blocks"] = blocks }, "blocks[1].units[1]"),
        ]
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: packageRoot.appendingPathComponent("Data/grades/grades.json"))) as! [String: Any]
        for (name, change, field) in cases {
            let dir = try makeTemporaryDirectory(self)
            var root = original
            change(&root)
            let bad = try JSONSerialization.data(withJSONObject: root)
            try bad.write(to: dir.appendingPathComponent("grades.json"))
            let model = try makeModel(dir)
            XCTAssertTrue(model.loadProblem?.contains(field) ?? false, "\(name): \(model.loadProblem ?? "no problem")")
            let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("grades.json.corrupt-") }
            XCTAssertEqual(kept.count, 1, name)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent(kept[0])), bad, "\(name): the bad file is kept as it was")
            XCTAssertEqual(model.book.units.count, 7, "\(name): defaults are shown")
        }
    }
}

final class GradesCSVTests: XCTestCase {
    func testRoundTripKeepsEverything() throws {
        var book = try curriculum(["Anglais": 14.5, "Réseaux": 7.25])
        book.units[2].name = "Insertion, \"pro\""
        book.units[2].courses[0].locked = true
        let text = GradesCSV.export(book)
        XCTAssertTrue(text.hasPrefix("unit_code,unit_name,unit_coefficient,professional,course_name,course_coefficient,mark,locked\r\n"))
        XCTAssertTrue(text.contains("\"Insertion, \"\"pro\"\"\""), "RFC 4180 quoting")
        let back = try GradesCSV.importing(text, into: book, .english)
        XCTAssertEqual(back, book)
    }

    func testImportReportsEveryBadRowWithItsLine() throws {
        let book = try curriculum()
        let csv = """
        unit_code,unit_name,unit_coefficient,professional,course_name,course_coefficient,mark,locked
        1,Génie Logiciel,6,false,Processus,4,13.5,true
        1,Génie Logiciel,6,false,Objets,0,,false
        2,Réseaux,6,false,Système,5,25,false
        3,Insertion,abc,false,Anglais,5,,false
        1,Génie,6,false,Swift,5,,false
        4,Mobiles,9,maybe,iOS,5,,false
        5,Mobiles 2,9,false,Android,4,,true
        """
        XCTAssertThrowsError(try GradesCSV.importing(csv, into: book, .english)) { error in
            let problems = (error as? GradesCSV.ImportError)?.problems ?? []
            XCTAssertEqual(problems.map(\.line), [3, 4, 5, 6, 7, 8], "\(problems)")
        }
        XCTAssertThrowsError(try GradesCSV.importing("1,\"open,6,false,x,1,,false\n", into: book, .english)) { error in
            XCTAssertEqual((error as? GradesCSV.ImportError)?.problems.first?.line, 1)
        }
    }

    func testImportMatchesUnitsByCodeAndKeepsBlocks() throws {
        let book = try curriculum()
        let csv = "6,Projet,9,true,Projet tuteuré,1,15,false\r\n7,Stage,15,true,Stage,1,,false\r\n9,Option,3,false,Latin,1,12,false\r\n"
        let imported = try GradesCSV.importing(csv, into: book, .english)
        XCTAssertEqual(imported.units.map(\.id), ["ue6", "ue7", "ue9"])
        XCTAssertEqual(imported.blocks.map(\.units), [["ue6", "ue7", "ue9"], ["ue6", "ue7"]])
        XCTAssertNoThrow(try imported.validate(.english))
    }

    func testCSVParserHandlesQuotesNewlinesAndBOM() throws {
        let records = try CSV.parse("\u{FEFF}a,\"b,c\",\"d\"\"e\"\r\n\"multi\nline\",x,\r\n\r\nlast")
        XCTAssertEqual(records.map(\.fields), [["a", "b,c", "d\"e"], ["multi\nline", "x", ""], ["last"]])
        XCTAssertEqual(records.map(\.line), [1, 2, 5])
        XCTAssertThrowsError(try CSV.parse("a,b\"c\n"))
    }
}

final class GradeBookFileTests: XCTestCase {
    /// The unit-by-unit writer gives the same bytes as encoding the whole book at once (a field
    /// added to `GradeBook` and not to `fileData` fails here).
    func testTheFileIsWrittenByteForByteAsTheWholeBookWouldBe() throws {
        var odd = try curriculum(["Programmation Objets": 12.25, "Anglais": 0])
        odd.units[0].name = "Quote \" backslash \\ slash / tab \t line\nend — é 😀"
        odd.units[0].courses[0].locked = true
        odd.units[1].courses = []
        odd.scale = 24.5
        odd.passMark = 12
        var many = GradeBook(units: [], blocks: [])
        for u in 0..<30 {
            var courses: [GradeCourse] = []
            for c in 0..<u % 5 {
                let mark: Double? = c % 2 == 0 ? Double(c) / 3 : nil
                courses.append(GradeCourse(id: "u\(u)c\(c)", name: "Course \(c)", coefficient: 1.1 * Double(c + 1), mark: mark))
            }
            many.units.append(GradeUnit(id: "u\(u)", code: u + 1, name: "Unit \(u)", coefficient: Double(u % 4) + 0.5,
                                        professional: u % 7 == 0, courses: courses))
        }
        many.blocks = [GradeBlock(id: "all", name: "All", units: many.units.map(\.id)), GradeBlock(id: "none", name: "", units: [])]
        let empty = GradeBook(units: [], blocks: [])
        for book in [try curriculum(), odd, many, empty] {
            let expected = try JSONFile.encoded(book)
            let written = try GradeBook.fileData(book)
            XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: expected, as: UTF8.self))
            XCTAssertEqual(try JSONDecoder().decode(GradeBook.self, from: written), book)
        }
    }
}
