import Foundation
import LockerKit
import TerminalUI
import XCTest
@testable import LockerApp

final class WorkoutScreenTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let work = BackgroundWork()

    /// `readAhead: false` keeps the chosen row from being read ahead, so Enter reads it then.
    func makeScreen(_ language: Language = .en, folder: URL? = nil, readAhead: Bool = true) throws -> (WorkoutScreen, Localizer) {
        let localizer = Localizer(directory: root.appendingPathComponent("Localization"), language: language)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-workouts-\(UUID().uuidString)")
        let model = WorkoutViewModel(localizer: localizer, library: WorkoutLibrary(directory: folder ?? empty, sample: root.appendingPathComponent("Data/workout/sample-run.gpx")),
                                     work: work,
                                     readAheadLimit: readAhead ? WorkoutViewModel.defaultReadAheadLimit : 0)
        XCTAssertTrue(work.waitUntilIdle(), "the folder is listed and summarised in the background")
        return (WorkoutScreen(viewModel: model), localizer)
    }

    /// A key, then whatever background work it started, delivered.
    func press(_ screen: WorkoutScreen, _ key: Key) {
        _ = screen.handle(key)
        XCTAssertTrue(work.waitUntilIdle())
    }

    func render(_ screen: WorkoutScreen, _ localizer: Localizer, _ width: Int, _ height: Int, ascii: Bool = false, colour: Bool = true) -> MemorySurface {
        // An ASCII-only terminal: text is measured and drawn through ASCIIText, as the app does.
        ASCIIText.isOn = ascii
        defer { ASCIIText.isOn = false }
        let surface = MemorySurface(width: width, height: height, glyphs: ascii ? .ascii : .unicode)
        let context = RenderContext(localizer: localizer, glyphs: ascii ? .ascii : .unicode, colour: colour)
        screen.layout(surface.bounds, context: context)
        screen.render(into: surface, rect: surface.bounds, context: context)
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
        // Too long for 80 columns: cut with an ellipsis, never in the middle of a word.
        let narrow = render(screen, localizer, 80, 37, colour: false).text
        let legend = try XCTUnwrap(narrow.split(separator: "\n").first { $0.contains("Colour is off") })
        XCTAssertTrue(legend.contains("…") || legend.contains("heart rate."), String(legend))
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

    /// A folder with a GPX of three hikes weeks apart and a file that is not a workout.
    func folderWithHikes() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var gpx = "<gpx>"
        for day in [2, 10, 20] {
            gpx += "<trk><name>Hike</name><type>hiking</type><trkseg>"
            for i in 0..<40 {
                let time = Date(timeIntervalSince1970: 1_775_000_000 + Double(day) * 86_400 + Double(i) * 30).formatted(.iso8601)
                gpx += "<trkpt lat=\"\(-38 + Double(i) * 0.0001)\" lon=\"145\"><time>\(time)</time></trkpt>"
            }
            gpx += "</trkseg></trk>"
        }
        try Data((gpx + "</gpx>").utf8).write(to: folder.appendingPathComponent("hikes.gpx"))
        try Data("not a workout".utf8).write(to: folder.appendingPathComponent("notes.tcx"))
        return folder
    }

    func testSeveralActivitiesAreRowsOfTheirOwnWithTheSport() throws {
        let (screen, localizer) = try makeScreen(folder: try folderWithHikes())
        let text = render(screen, localizer, 100, 20).text
        XCTAssertTrue(text.contains("Sport"), text)
        XCTAssertTrue(text.contains("Hiking"), text)
        for n in 1...3 { XCTAssertTrue(text.contains("Hike (\(n)/3)"), text) }
        XCTAssertTrue(text.contains("notes.tcx"), "an unreadable file stays in the list with its reason")
        let second = try XCTUnwrap(screen.viewModel.items.firstIndex { $0.title == "Hike" && $0.activity == 1 })
        screen.viewModel.select(second)
        press(screen, .enter)
        let opened = render(screen, localizer, 100, 30).text
        XCTAssertTrue(opened.contains("Hike (2/3) — Hiking"), opened)
        XCTAssertTrue(opened.contains("19:30"), "the second hike alone: 39 steps of 30 s")
    }

    /// Issue 27, item 9: newest first by the workouts' own dates (the bundled sample among
    /// them, not last), the same on every start; an unreadable file's row names it once and
    /// reads as an error.
    func testTheListIsNewestFirstAndErrorsReadAsErrors() throws {
        let folder = try folderWithHikes()
        let (screen, localizer) = try makeScreen(folder: folder)
        let items = screen.viewModel.items
        let dated = items.compactMap(\.start)
        XCTAssertEqual(dated, dated.sorted(by: >), "newest first")
        XCTAssertEqual(items.filter { $0.title == "Hike" }.map(\.activity), [2, 1, 0], "the third hike (20 days in) is the newest")
        XCTAssertEqual(items.last?.url.lastPathComponent, "notes.tcx", "a file without a date comes after the dated ones")
        let row = render(screen, localizer, 100, 20).lines.first { $0.contains("notes.tcx") } ?? ""
        XCTAssertTrue(row.contains("✗ notes.tcx"), row)
        XCTAssertEqual(row.components(separatedBy: "notes.tcx").count - 1, 1, "the file is named once: \(row)")
        let (again, _) = try makeScreen(folder: folder)
        XCTAssertEqual(again.viewModel.items.map(\.url), items.map(\.url), "the same order on the next start")
        // After L, the error row speaks the new language (it was worded once, when read).
        localizer.setLanguage(.fr)
        let french = render(screen, localizer, 100, 20).lines.first { $0.contains("notes.tcx") } ?? ""
        XCTAssertTrue(french.contains("ligne"), "the reason in French: \(french)")
        XCTAssertFalse(french.contains("line "), french)
    }

    /// Issue 27, item 16: at 60 columns the Sport column gives way to the title, and a title
    /// that still does not fit ends with an ellipsis.
    func testNarrowListsKeepTheTitleAndCutWithAnEllipsis() throws {
        let (screen, localizer) = try makeScreen(folder: try folderWithHikes())
        let narrow = render(screen, localizer, 60, 20).text
        XCTAssertFalse(narrow.contains("Sport"), narrow)
        XCTAssertTrue(narrow.contains("Hike (1/3)"), narrow)
        XCTAssertTrue(narrow.contains("Casey loop  (bundl…"), narrow)
        let error = narrow.split(separator: "\n").first { $0.contains("notes.tcx") } ?? ""
        XCTAssertTrue(error.hasSuffix("…"), "a cut reason ends with an ellipsis: \(error)")
    }

    func testEscStopsOpeningAndTheListStays() throws {
        let (screen, localizer) = try makeScreen(readAhead: false)
        _ = screen.handle(.enter)
        XCTAssertTrue(screen.status(localizer)?.hasPrefix("Opening sample-run.gpx:") ?? false, screen.status(localizer) ?? "")
        XCTAssertEqual(screen.footerHints(localizer).map(\.key), ["Esc"])
        XCTAssertTrue(screen.handle(.escape))
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertNil(screen.viewModel.current, "a cancelled open never lands")
        XCTAssertEqual(screen.status(localizer), "Opening cancelled.")
        XCTAssertTrue(render(screen, localizer, 80, 21).text.contains("Casey loop"))
    }

    /// The chosen row is read ahead while the list rests on it: Enter shows the map at once,
    /// with no reading step (the key's frame is the map's, within the 1 ms key budget).
    func testEnterShowsAWorkoutReadAheadAtOnce() throws {
        let (screen, localizer) = try makeScreen()
        _ = screen.handle(.enter)
        XCTAssertNotNil(screen.viewModel.current, "no background step between Enter and the map")
        XCTAssertNil(screen.viewModel.opening)
        XCTAssertTrue(render(screen, localizer, 80, 24).text.contains("Casey loop — Running"))
        // Back to the list and open again: still at once.
        _ = screen.handle(.escape)
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertNil(screen.viewModel.current)
        _ = screen.handle(.enter)
        XCTAssertNotNil(screen.viewModel.current)
    }

    /// The start and finish markers go in the cells the route's own dots are in: they were
    /// projected by a computation of their own, and in the release build a route going due north
    /// had them a column left of its line (80×24). Now one function places both.
    func testTheMarkersSitOnTheRouteTheyMark() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("north-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = (0..<600).map { i in
            #"{"lat": \#(10 + Double(i) * 0.00002), "lon": 10, "time": "\#(Date(timeIntervalSince1970: 1_714_543_200 + Double(i)).formatted(.iso8601))"}"#
        }
        try Data(#"{"title": "due north", "points": [\#(points.joined(separator: ","))]}"#.utf8).write(to: folder.appendingPathComponent("north.json"))
        let (screen, _) = try makeScreen(folder: folder)
        press(screen, .enter)
        let analysis = try XCTUnwrap(screen.viewModel.current)
        let plot = RouteMapPlot()
        for columns in stride(from: 20, through: 120, by: 1) {
          for rows in 5...50 {
            let canvas = plot.canvas(for: screen.viewModel, analysis: analysis, columns: columns, rows: rows)
            for point in [0, 599, 300] {
                let dot = try XCTUnwrap(plot.dot(ofPoint: point))
                XCTAssertTrue(canvas.hasDots(column: dot.x / 2, row: dot.y / 4), "\(columns)×\(rows), point \(point) at dot \(dot)")
            }
          }
        }
    }

    func testNoRouteIsSaidAndTheChartStillWorks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Other\"><Lap><Track>"
        for i in stride(from: 0, through: 1800, by: 5) {
            let time = Date(timeIntervalSince1970: 1_777_617_000 + Double(i)).formatted(.iso8601)
            tcx += "<Trackpoint><Time>\(time)</Time><DistanceMeters>\(Double(i) * 1500 / 1800)</DistanceMeters><HeartRateBpm><Value>\(120 + i % 30)</Value></HeartRateBpm></Trackpoint>"
        }
        try Data((tcx + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>").utf8).write(to: folder.appendingPathComponent("pool.tcx"))
        let (screen, localizer) = try makeScreen(folder: folder)
        press(screen, .enter)
        let text = render(screen, localizer, 120, 37).text
        XCTAssertTrue(text.contains("─ Heart rate · no positions ─"), "the chart's title says there is no route: \(text)")
        XCTAssertFalse(text.contains("Route"), "no empty route box")
        XCTAssertTrue(text.contains("1.50 km (the device's"), text)
        XCTAssertTrue(text.contains("20:00 /km"), "a real pace from the device's distance")
        XCTAssertFalse(text.contains("▶ start"), "no start marker without a route")
        XCTAssertTrue(text.contains("│145 "), "the heart-rate chart still draws, up to 145 bpm")
    }

    /// A folder holding one TCX of `points` trackpoints every 5 s, with what is asked for.
    func folder(_ name: String, positions: Bool, heartRate: Bool, distance: Bool, time: Bool) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        var tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\"><Lap><Track>"
        for i in stride(from: 0, through: 1800, by: 5) {
            tcx += "<Trackpoint>"
            // Later than the bundled sample, so that it is the list's first row.
            if time { tcx += "<Time>\(Date(timeIntervalSince1970: 1_790_000_000 + Double(i)).formatted(.iso8601))</Time>" }
            if positions { tcx += "<Position><LatitudeDegrees>\(45 + Double(i) * 1e-5)</LatitudeDegrees><LongitudeDegrees>\(5 + Double(i % 600) * 1e-5)</LongitudeDegrees></Position>" }
            tcx += "<AltitudeMeters>\(200 + i / 20)</AltitudeMeters>"
            if distance { tcx += "<DistanceMeters>\(Double(i) * 6)</DistanceMeters>" }
            if heartRate { tcx += "<HeartRateBpm><Value>\(120 + i % 30)</Value></HeartRateBpm>" }
            tcx += "</Trackpoint>"
        }
        try Data((tcx + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>").utf8).write(to: folder.appendingPathComponent(name))
        return folder
    }

    /// Issue 27, item 10: a file without heart rate charts its speed (or its altitude), a file
    /// without positions gets no route box, and a file with nothing to draw gets its summary
    /// alone, without placeholders, and only the keys that act.
    func testLayoutsForWhatTheFileHas() throws {
        // Positions and times, no heart rate: the map over a speed chart (21.6 km/h).
        var (screen, localizer) = try makeScreen(folder: try folder("ride.tcx", positions: true, heartRate: false, distance: true, time: true))
        // Until the user moves, the newest row stays chosen while the others are read and sorted.
        XCTAssertEqual(screen.viewModel.selectedIndex, 0)
        XCTAssertEqual(screen.viewModel.items.first?.title, "ride")
        press(screen, .enter)
        var text = render(screen, localizer, 80, 21).text
        XCTAssertTrue(text.contains("─ Route ─"), text)
        XCTAssertTrue(text.contains("─ Speed (km/h) · no heart rate in this file ─"), text)
        XCTAssertTrue(text.contains("│ 22 "), "the speed axis: \(text)")
        XCTAssertFalse(text.contains("No heart rate in this workout."), "not said twice: \(text)")
        XCTAssertFalse(screen.footerHints(localizer).map(\.key).contains("z"), "no zones without heart rate")
        // Distances and times only: the speed chart alone, over the whole room.
        (screen, localizer) = try makeScreen(folder: try folder("trainer.tcx", positions: false, heartRate: false, distance: true, time: true))
        press(screen, .enter)
        text = render(screen, localizer, 80, 21).text
        XCTAssertFalse(text.contains("Route"), text)
        XCTAssertTrue(text.contains("─ Speed (km/h) · no heart rate in this file · no positions ─"), text)
        XCTAssertEqual(screen.footerHints(localizer).map(\.key).prefix(1), ["← →"], "the arrows move the chart cursor")
        // Altitudes only: the altitude chart.
        (screen, localizer) = try makeScreen(folder: try folder("hike.tcx", positions: false, heartRate: false, distance: false, time: false))
        _ = render(screen, localizer, 80, 21)
        let hike = try XCTUnwrap(screen.viewModel.items.firstIndex { $0.title == "hike" })
        for _ in 0..<hike { press(screen, .down) }
        press(screen, .enter)
        text = render(screen, localizer, 80, 21).text
        XCTAssertTrue(text.contains("─ Altitude (m) · no heart rate or speed in this file · no positions ─"), text)
        XCTAssertTrue(text.contains("│290"), "the altitude axis: \(text)")
    }

    /// Issue 27, item 11: at 80 columns the summary breaks between figures, never inside one;
    /// `s` does not repeat the title; the zone times line up; the start marker shows at first.
    func testSummaryLinesZonesAndTheStartMarker() throws {
        let (screen, localizer) = try makeScreen()
        press(screen, .enter)
        let narrow = render(screen, localizer, 80, 21)
        XCTAssertEqual(narrow.lines[1].trimmingCharacters(in: .whitespaces), "2026-05-01 06:30 · 5.65 km · 30:37 elapsed, 29:27 moving · 5:13 /km  11.5 km/h")
        XCTAssertEqual(narrow.lines[2].trimmingCharacters(in: .whitespaces), "♥ 97/156/176 bpm · climb 39 m")
        XCTAssertTrue(narrow.text.contains("▶"), "the start marker is not hidden by the cursor")
        let wide = render(screen, localizer, 120, 37)
        let zones = wide.lines.filter { $0.contains(" Z") && $0.contains("0 %") }
        XCTAssertEqual(zones.count, 5, wide.text)
        let columns = Set(zones.map { $0.range(of: ")")!.lowerBound.utf16Offset(in: $0) })
        XCTAssertEqual(columns.count, 1, "the shares line up: \(zones)")
        _ = screen.handle(.character("s"))
        let text = render(screen, localizer, 80, 21)
        XCTAssertEqual(text.text.components(separatedBy: "Casey loop").count - 1, 1, "the title once: \(text.text)")
    }
}
