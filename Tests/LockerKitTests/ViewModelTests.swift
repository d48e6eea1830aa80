import XCTest
@testable import LockerKit

final class ViewModelTests: XCTestCase {
    final class Counter: ViewModel {
        private(set) var value = 0
        func increment() { value += 1; notifyChanged() }
    }

    func testObserversAreCalledAfterEveryChangeInOrder() {
        let model = Counter()
        var seen: [String] = []
        let a = model.observe { seen.append("a\(model.value)") }
        let b = model.observe { seen.append("b\(model.value)") }
        model.increment()
        model.increment()
        XCTAssertEqual(seen, ["a1", "b1", "a2", "b2"], "called after the change, in registration order")
        _ = (a, b)
    }

    func testCancelAndDroppedTokensStopCallbacks() {
        let model = Counter()
        var calls = 0
        let token = model.observe { calls += 1 }
        model.increment()
        token.cancel()
        token.cancel()
        model.increment()
        XCTAssertEqual(calls, 1)
        do {
            _ = model.observe { calls += 100 }
        }
        model.increment()
        XCTAssertEqual(calls, 1, "a token that is not kept ends the observation")
        XCTAssertEqual(model.observerCount, 0)
    }

    func testEditorCommitsOrDiscardsTheWholeCopy() {
        struct Unit: Equatable { var name: String; var courses: [String] }
        var editor = Editor<Unit>()
        let unit = Unit(name: "Maths", courses: ["Algebra"])
        editor.beginEditing(unit)
        editor.update { $0.name = "Mathematics"; $0.courses.append("Geometry") }
        editor.update { $0.courses.removeFirst() }
        XCTAssertTrue(editor.hasChanges)
        XCTAssertEqual(editor.draft, Unit(name: "Mathematics", courses: ["Geometry"]))
        XCTAssertNil(editor.endEditing(cancel: true), "cancel discards adds, deletes and renames")
        XCTAssertFalse(editor.isEditing)

        editor.beginEditing(unit)
        editor.update { $0.courses.append("Statistics") }
        XCTAssertEqual(editor.endEditing(cancel: false), Unit(name: "Maths", courses: ["Algebra", "Statistics"]))
        editor.update { $0.name = "ignored" }
        XCTAssertNil(editor.draft, "no edits outside a session")
    }
}
