import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

final class WorkoutScreenTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let work = BackgroundWork()

    func makeScreen(_ language: Language = .en, folder: URL? = nil) throws -> (WorkoutScreen, Localizer) {
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: language)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-workouts-\(UUID().uuidString)")
        let model = WorkoutViewModel(localizer: localizer, library: WorkoutLibrary(directory: folder ?? empty),
                                     sample: root.appendingPathComponent("Data/workout/sample-run.gpx"), work: work)
        XCTAssertTrue(work.waitUntilIdle(), "the folder is listed and summarised in the background")
        return (WorkoutScreen(viewModel: model), localizer)
    }

    /// A key, then whatever background work it started, delivered.
    func press(_ screen: WorkoutScreen, _ key: Key) {
        _ = screen.handle(key)
        XCTAssertTrue(work.waitUntilIdle())
    }

    func render(_ screen: WorkoutScreen, _ localizer: Localizer, _ width: Int, _ height: Int, ascii: Bool = false, colour: Bool = true) -> MemorySurface {
        let surface = MemorySurface(width: width, height: height, glyphs: ascii ? .ascii : .unicode)
        screen.render(into: surface, rect: surface.bounds, context: RenderContext(localizer: localizer, glyphs: ascii ? .ascii : .unicode, colour: colour))
        return surface
    }

    func testListThenOpenedWorkoutAtBothSizes() throws {
        let (screen, localizer) = try makeScreen()
        let list = render(screen, localizer, 80, 21)
        XCTAssertTrue(list.text.contains("Casey loop"), list.text)
        XCTAssertTrue(list.text.contains("5.65 km"), list.text)
        assertGolden(list, "workout-list-en-80x24")
        press(screen, .enter)
        assertGolden(render(screen, localizer, 80, 21), "workout-en-80x24")
        let wide = render(screen, localizer, 120, 37)
        XCTAssertTrue(wide.text.contains("Heart-rate zones"), wide.text)
        XCTAssertTrue(wide.text.contains("♥ 97 ▮▮▮▮ 176 bpm"), wide.text)
        assertGolden(wide, "workout-en-120x40")
    }

    func testCursorZoomColouringAndPlainText() throws {
        let (screen, localizer) = try makeScreen()
        press(screen, .enter)
        _ = render(screen, localizer, 120, 37)
        XCTAssertEqual(screen.status(localizer), "time 0:00 · 0 m · 98 bpm")
        _ = screen.handle(.tab)
        _ = screen.handle(.end)
        XCTAssertTrue(screen.status(localizer)?.hasPrefix("time 30:37 · 5.65 km") ?? false, screen.status(localizer) ?? "")
        _ = screen.handle(.character("+"))
        XCTAssertTrue(render(screen, localizer, 120, 37).text.contains("Route ×1.5"))
        _ = screen.handle(.character("z"))
        XCTAssertTrue(render(screen, localizer, 120, 37).text.contains("Z5"))
        let mono = render(screen, localizer, 120, 37, colour: false)
        XCTAssertTrue(mono.text.contains("Colour is off"), mono.text)
        _ = screen.handle(.character("s"))
        let text = render(screen, localizer, 80, 21).text
        XCTAssertTrue(text.contains("Distance"), text)
        XCTAssertTrue(text.contains("Z1 50–60 %"), text)
        _ = screen.handle(.escape)
        _ = screen.handle(.escape)
        XCTAssertTrue(render(screen, localizer, 80, 21).text.contains("Casey loop"))
        let ascii = render(screen, localizer, 80, 21, ascii: true)
        XCTAssertFalse(ascii.text.unicodeScalars.contains { $0.value >= 0x2500 && $0.value <= 0x28FF })
    }
}
