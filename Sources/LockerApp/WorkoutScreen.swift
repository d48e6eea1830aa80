import FoundationEssentials
import LockerKit
import TerminalUI

/// The Workout tab: a list of workouts (Enter opens one), then the opened workout's summary, its
/// route coloured by heart rate and the heart-rate chart with a cursor.
public final class WorkoutScreen: TabScreen {
    public let tab = Tab.workout
    let viewModel: WorkoutViewModel
    private var list = ListState()
    private var listHeight = 10
    private enum Focus { case map, chart }
    private var focus = Focus.map
    private var showText = false
    private var textView = TextViewState()
    private var textHeight = 10
    private let map = RouteMapPlot()
    private let chart = WorkoutChartPlot()
    /// Points the chart cursor moves per ← →: about one dot column of the chart.
    private var cursorStep = 1

    public init(viewModel: WorkoutViewModel) {
        self.viewModel = viewModel
    }

    public func observeChanges(_ callback: @escaping () -> Void) -> ObservationToken? {
        viewModel.observe(callback)
    }

    // MARK: Keys

    /// The tab's four modes: the list, the list while a workout opens, an opened workout and its
    /// summary as plain text.
    public func keyTables(_ l: Localizer) -> [KeyTable] {
        [listKeys(l), openingKeys(l), workoutKeys(l, drawn: .all), summaryKeys(l)]
    }

    /// What the Workout tab shows: one value, read from the view-model (a workout being opened,
    /// one open) and the summary switch; the keys and the footer derive from it.
    enum Mode: Equatable { case list, opening, workout, summary }

    var mode: Mode {
        if viewModel.opening != nil { return .opening }
        guard viewModel.current != nil else { return .list }
        return showText ? .summary : .workout
    }

    public func activeKeys(_ l: Localizer) -> KeyTable {
        switch mode {
        case .list: return listKeys(l)
        case .opening: return openingKeys(l)
        case .workout: return workoutKeys(l, drawn: drawn)
        case .summary: return summaryKeys(l)
        }
    }

    public func handle(_ key: Key) -> Bool {
        viewModel.dismissReloadReport()
        return activeKeys(viewModel.localizer).handle(key)
    }

    private func listKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "workout-list", title: l.t("Workouts"), listBindings(l))
    }

    /// The list's keys: moving, opening a row, reading the folder again.
    private func listBindings(_ l: Localizer) -> [KeyBinding] {
        [
            KeyBinding([.up, .down, .pageUp, .pageDown, .home, .end] + ViMoves.keys,
                       help: l.t("Move; Home and End jump to the ends"),
                       footer: viewModel.items.count > 1 ? l.t("move") : nil, footerKeys: "↑↓") { key in
                self.moveInList(key)
            },
            KeyBinding([.enter], help: l.t("Choose a workout in the list and open it (.gpx, .tcx, .fit or .json)"),
                       footer: l.t("open")) {
                self.viewModel.openSelected()
                self.focus = .map
            }.disabled {
                self.viewModel.items.isEmpty ? l.t("No workout to open yet: add one with locker workout import FILE.") : nil
            },
            KeyBinding([.character("r")], help: l.t("Read the workouts folder again (add files with locker workout import FILE)"),
                       footer: l.t("reload")) {
                self.viewModel.reload(announce: true)
            },
        ]
    }

    /// While a workout opens the list stays live; only Esc (cancel) shows in the footer.
    private func openingKeys(_ l: Localizer) -> KeyTable {
        let cancel = KeyBinding([.escape], help: l.t("While a workout opens: stop opening it"), footer: l.t("cancel")) {
            self.viewModel.cancelOpening()
        }
        let quietList = listBindings(l).map { KeyBinding(matching: $0.matches, names: $0.keys, label: $0.label, help: $0.help, action: $0.action) }
        return KeyTable(id: "workout-opening", title: l.t("Opening a workout"), [cancel] + quietList)
    }

    /// What the open workout draws: a map (it has positions), a chart, and whether the chart
    /// is the heart rate (which `z` colours).
    struct Drawn: Equatable {
        var map: Bool, chart: Bool, heartRate: Bool
        static let all = Drawn(map: true, chart: true, heartRate: true)
    }

    private var drawn: Drawn {
        guard let current = viewModel.current else { return .all }
        return Drawn(map: current.hasRoute, chart: current.chart != nil, heartRate: current.heartRateRange != nil)
    }

    /// The pane the arrows act on: the focused one, or the only one drawn.
    private var activeFocus: Focus {
        let drawn = self.drawn
        return !drawn.map ? .chart : !drawn.chart ? .map : focus
    }

    /// An opened workout. The arrows pan the map while it has focus and move the chart cursor
    /// otherwise; the footer says which. Only the keys for what is drawn are in the table (no
    /// zoom without a map, no cursor without a chart, no zones without heart rate).
    private func workoutKeys(_ l: Localizer, drawn: Drawn) -> KeyTable {
        let focus = activeFocus
        var bindings: [KeyBinding] = []
        if drawn.map {
            bindings.append(KeyBinding([.character("+"), .character("="), .character("-"), .character("_"), .character("0")],
                                       help: l.t("Zoom the map in and out; 0 fits the whole route"), footer: l.t("zoom"), footerKeys: "+ -") { key in
                self.zoom(key)
            })
        }
        if drawn.map || drawn.chart {
            bindings.append(KeyBinding([.up, .down, .left, .right],
                                       help: l.t("Pan the map (map focused) or move the chart cursor (chart focused)"),
                                       footer: focus == .map ? l.t("pan") : l.t("cursor"), footerKeys: focus == .map ? "←↑↓→" : "← →") { key in
                self.arrow(key)
            })
        }
        if drawn.chart {
            bindings.append(KeyBinding([.character("h"), .character("l")], help: l.t("Move the chart cursor, whatever has focus")) { key in
                self.moveCursor(by: key == .character("h") ? -self.cursorStep : self.cursorStep)
            })
        }
        if drawn.map && drawn.chart {
            bindings.append(KeyBinding([.tab, .backTab], help: l.t("Switch focus between the map and the chart"),
                                       footer: focus == .map ? l.t("chart") : l.t("map")) {
                self.focus = self.focus == .map ? .chart : .map
            })
        }
        if drawn.chart {
            bindings.append(KeyBinding([.shiftLeft, .shiftRight, .pageUp, .pageDown, .home, .end],
                                       help: l.t("Move the chart cursor by larger steps, or to the start or end")) { key in
                self.jumpCursor(key)
            })
        }
        if drawn.heartRate {
            bindings.append(KeyBinding([.character("z")], help: l.t("Colour by four bands of this workout's heart rate, or by the five zones"),
                                       footer: l.t("zones")) {
                self.viewModel.toggleColouring()
            })
        }
        bindings += [
            KeyBinding([.character("s")], help: l.t("The summary as plain text (for screen readers)"), footer: l.t("summary")) {
                self.showText = true
                self.textView = TextViewState()
            },
            KeyBinding([.escape], help: l.t("Back to the list"), footer: l.t("list")) {
                self.viewModel.close()
            },
        ]
        return KeyTable(id: "workout", title: l.t("Workout"), bindings)
    }

    /// The summary as plain text: it scrolls, and s or Esc goes back.
    private func summaryKeys(_ l: Localizer) -> KeyTable {
        KeyTable(id: "workout-summary", title: l.t("The summary as plain text (for screen readers)"), [
            KeyBinding([.character("s"), .escape], help: l.t("Back to the map"), footer: drawn.map ? l.t("back to the map") : l.t("back")) {
                self.showText = false
            },
            KeyBinding([.up, .down, .pageUp, .pageDown, .character(" "), .home, .end] + ViMoves.keys,
                       help: l.t("Move; Home and End jump to the ends")) { key in
                self.textView.handle(key, height: self.textHeight)
            },
        ])
    }

    /// Moves the list's selection as `ListState` does; false when the list is empty.
    private func moveInList(_ key: Key) -> Bool {
        var state = list
        state.setCount(viewModel.items.count)
        state.select(viewModel.selectedIndex)
        guard state.handle(key, pageSize: listHeight) else { return false }
        viewModel.select(state.selected)
        return true
    }

    /// + = zoom in, - _ zoom out, 0 fits the route.
    private func zoom(_ key: Key) -> Bool {
        switch key {
        case .character("+"), .character("="): viewModel.zoom(in: true)
        case .character("-"), .character("_"): viewModel.zoom(in: false)
        case .character("0"): viewModel.fit()
        default: return false
        }
        return true
    }

    /// Pans the map when it has focus; with the chart focused ← → move its cursor and ↑ ↓ do nothing.
    private func arrow(_ key: Key) -> Bool {
        if activeFocus == .map {
            switch key {
            case .up: viewModel.pan(dx: 0, dy: -1)
            case .down: viewModel.pan(dx: 0, dy: 1)
            case .left: viewModel.pan(dx: -1, dy: 0)
            case .right: viewModel.pan(dx: 1, dy: 0)
            default: return false
            }
            return true
        }
        switch key {
        case .left: return moveCursor(by: -cursorStep)
        case .right: return moveCursor(by: cursorStep)
        default: return false
        }
    }

    /// Shift-← → and PgUp PgDn move the cursor ten steps; Home and End go to the ends.
    private func jumpCursor(_ key: Key) -> Bool {
        switch key {
        case .shiftLeft, .pageUp: return moveCursor(by: -cursorStep * 10)
        case .shiftRight, .pageDown: return moveCursor(by: cursorStep * 10)
        case .home: viewModel.moveCursor(to: 0)
        case .end:
            guard let current = viewModel.current else { return false }
            viewModel.moveCursor(to: current.workout.count - 1)
        default: return false
        }
        return true
    }

    /// Moves the chart cursor and gives the chart focus.
    private func moveCursor(by points: Int) -> Bool {
        viewModel.moveCursor(by: points)
        if drawn.chart { focus = .chart }
        return true
    }

    public var messageExpiry: Date? { viewModel.openProblemExpiry }

    public func status(_ l: Localizer) -> String? {
        if let opening = viewModel.opening {
            return l.t("Opening {file}: {percent} % read (Esc cancels)",
                       ["file": opening.fileName, "percent": String(Int(opening.progress * 100))])
        }
        if let problem = viewModel.openProblem { return problem }
        if let report = viewModel.reloadReport { return report }
        guard let current = viewModel.current else {
            guard viewModel.items.indices.contains(viewModel.selectedIndex) else { return nil }
            let item = viewModel.items[viewModel.selectedIndex]
            if item.pending { return l.t("Reading {file} …", ["file": item.url.lastPathComponent]) }
            return item.problem(l).map { l.t("{file}: {problem}", ["file": item.url.lastPathComponent, "problem": $0]) }
        }
        // The cursor's figures only while a map or a chart shows where the cursor is.
        guard !showText, current.hasRoute || current.chart != nil else { return nil }
        return cursorDescription(current, l)
    }

    /// "12:34 · 3.21 km · 156 bpm" at the chart cursor.
    private func cursorDescription(_ current: WorkoutAnalysis, _ l: Localizer) -> String {
        let i = viewModel.cursor
        let w = current.workout
        var parts: [String] = []
        if let start = current.summary.start, !w.time[i].isNaN {
            parts.append(l.t("time {value}", ["value": WorkoutText.duration(w.time[i] - start)]))
        } else {
            parts.append(l.t("point {index} of {count}", ["index": String(i + 1), "count": String(w.count)]))
        }
        if current.hasDistanceAlong {
            parts.append(MeasureText.distance(Double(current.cumulativeDistance[i]), l))
        }
        parts.append(w.heartRate[i].isNaN ? l.t("no heart rate") : l.t("{bpm} bpm", ["bpm": WorkoutText.bpm(Double(w.heartRate[i]))]))
        return parts.joined(separator: " · ")
    }

    // MARK: Drawing

    public func render(into surface: Surface, rect: Rect, context: RenderContext) {
        guard let current = viewModel.current else { return renderList(into: surface, rect: rect, context: context) }
        let l = context.localizer
        let title = current.workout.title(fileName: viewModel.currentFileName) + activityLabel(viewModel.currentItem)
            + (SportText.name(current.workout.kind, l).map { " — " + $0 } ?? "")
        let (header, body) = rect.splitTop(1)
        surface.write(" " + title, x: header.x, y: header.y, style: Style(.title, [.bold]), clip: header)
        if showText {
            renderText(current, into: surface, rect: body.inset(dx: 1, dy: 0), context: context)
            return
        }
        let panes = self.panes(body, current)
        renderSummary(current, into: surface, rect: panes.summary.inset(dx: 1, dy: 0), context: context, compact: panes.compact)
        if !panes.map.isEmpty { renderMap(current, into: surface, rect: panes.map, context: context) }
        if !panes.chart.isEmpty { renderChart(current, into: surface, rect: panes.chart, context: context) }
    }

    /// The open workout below its title: the summary on the left from 100 columns (else two
    /// lines on top), then what the file has to draw: the map over the chart (a third of the
    /// height), or either alone over the whole room (no empty "no route" box).
    private func panes(_ body: Rect, _ current: WorkoutAnalysis) -> (summary: Rect, compact: Bool, map: Rect, chart: Rect) {
        let summary: Rect, plots: Rect
        let compact = body.width < 100
        let none = Rect(x: body.x, y: body.y, width: 0, height: 0)
        if !current.hasRoute && current.chart == nil { return (body, false, none, none) }
        if compact { (summary, plots) = body.splitTop(2) } else { (summary, plots) = body.splitLeft(36) }
        guard current.hasRoute else { return (summary, compact, none, plots) }
        guard current.chart != nil else { return (summary, compact, plots, none) }
        let chartHeight = max(4, plots.height / 3)
        let map = Rect(x: plots.x, y: plots.y, width: plots.width, height: plots.height - chartHeight)
        return (summary, compact, map, Rect(x: plots.x, y: map.maxY, width: plots.width, height: chartHeight))
    }

    /// The chart's dots, right of its value axis, inside its box.
    private static func chartPlot(_ chart: Rect, _ current: WorkoutAnalysis) -> Rect {
        let inner = chart.inset(dx: 1, dy: 1)
        let axisWidth = current.chart.map { axisLabels($0).map(\.displayWidth).max() ?? 3 }.map { max(3, $0) + 1 } ?? 4
        return Rect(x: inner.x + axisWidth, y: inner.y, width: inner.width - axisWidth, height: inner.height)
    }

    /// The top and bottom values of the chart's axis: "176" bpm, "34" km/h, "1250" m.
    private static func axisLabels(_ chart: WorkoutChart) -> [String] {
        [chart.range.upperBound, chart.range.lowerBound].map { value in
            chart.series == .heartRate ? WorkoutText.bpm(value) : NumberText.whole(value).map(String.init) ?? "—"
        }
    }

    /// The list's rows below its column titles; the open workout's text, or the chart's width
    /// that sets how far h and l move the cursor.
    public func layout(_ area: Rect, context: RenderContext) {
        let body = area.splitTop(1).1
        guard let current = viewModel.current else {
            listHeight = body.height
            list.setCount(viewModel.items.count)
            list.select(viewModel.selectedIndex)
            list.scrollToSelection(height: listHeight)
            return
        }
        if showText {
            let rect = body.inset(dx: 1, dy: 0)
            let lines = WorkoutSummaryText.lines(current, fileName: viewModel.currentFileName, title: false, context.localizer)
            // Wrapped to the width (a long heading or reason continues on the next line).
            textView.setLines(lines.flatMap { WordWrap.wrap($0, width: rect.width) }.map { TextLine($0) }, height: rect.height)
            textHeight = rect.height
        } else {
            let plot = Self.chartPlot(panes(body, current).chart, current)
            cursorStep = max(1, current.workout.count / max(1, plot.width * 2))
        }
    }

    private func renderList(into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        let (header, body) = rect.splitTop(1)
        // Below 80 columns the Sport column gives its room to the title (the sport is still in
        // the opened workout's header).
        let sportWidth = rect.width >= 80 ? 12 : 0
        let columns = [(l.t("Date"), 17), (l.t("Distance"), 10), (l.t("Duration"), 9)] + (sportWidth > 0 ? [(l.t("Sport"), sportWidth)] : [])
        // Where the title starts, and what it may take (the scroll bar's column left free).
        let titleStart = 2 + columns.reduce(0) { $0 + $1.1 + 1 }
        let titleWidth = max(1, rect.width - titleStart - (viewModel.items.count > body.height ? 1 : 0))
        var x = header.x + 2
        for (title, width) in columns {
            surface.write(title, x: x, y: header.y, style: Style(.muted, [.bold]), clip: header)
            x += width + 1
        }
        surface.write(l.t("Title"), x: x, y: header.y, style: Style(.muted, [.bold]), clip: header)
        if viewModel.items.isEmpty {
            let text = viewModel.isListing ? l.t("Reading the workouts folder …")
                : l.t("No workouts yet. Import one with: locker workout import FILE.gpx")
            surface.write(text, x: body.x + 2, y: body.y + 1, style: Style(.muted), clip: body)
            surface.parkCursor(x: body.x + 2, y: body.y + 1)
            return
        }
        ListView().render(list, into: surface, rect: body) { index, _ in
            let item = self.viewModel.items[index]
            if let problem = item.problem(l) {
                // An error row reads as one: a cross, the file once, then what is wrong with it.
                let name = "  " + context.glyphs.cross + " " + item.url.lastPathComponent + "  "
                let room = max(1, rect.width - name.displayWidth - (self.viewModel.items.count > body.height ? 1 : 0))
                return [Span(name, Style(.bad, [.bold])), Span(problem.truncated(toWidth: room, ellipsis: context.glyphs.ellipsis), Style(.bad))]
            }
            if item.pending {
                return [Span("  " + l.t("reading …").padded(toWidth: titleStart - 3) + " ", Style(.muted)),
                        Span(item.title.truncated(toWidth: titleWidth, ellipsis: context.glyphs.ellipsis), Style(.text, [.bold]))]
            }
            let date = MeasureText.dateTime(item.start).padded(toWidth: 17)
            let distance = (item.distanceMeters.map { MeasureText.distance($0, l) } ?? "—").padded(toWidth: 10, alignment: .right)
            let duration = WorkoutText.duration(item.elapsedSeconds).padded(toWidth: 9, alignment: .right)
            let sport = sportWidth > 0
                ? (SportText.name(item.sport, l) ?? "").truncated(toWidth: sportWidth, ellipsis: context.glyphs.ellipsis).padded(toWidth: sportWidth) + " " : ""
            let title = (item.title + self.activityLabel(item)).truncated(toWidth: titleWidth, ellipsis: context.glyphs.ellipsis)
            var spans = [Span("  " + date + " " + distance + " " + duration + " " + sport, Style(.text)),
                         Span(title, Style(.text, [.bold]))]
            let sampleNote = "  " + l.t("(bundled sample, synthetic)")
            let room = titleWidth - title.displayWidth
            if item.isSample && room >= 8 {
                spans.append(Span(sampleNote.truncated(toWidth: room, ellipsis: context.glyphs.ellipsis), Style(.muted)))
            }
            return spans
        }
    }

    /// " (2/3)" for the second of three activities in one file.
    private func activityLabel(_ item: WorkoutViewModel.Item?) -> String {
        guard let item, item.activityCount > 1 else { return "" }
        return " (\(item.activity + 1)/\(item.activityCount))"
    }

    private func renderSummary(_ current: WorkoutAnalysis, into surface: Surface, rect: Rect, context: RenderContext, compact: Bool) {
        let l = context.localizer
        let rows = WorkoutSummaryText.rows(current, l)
        if compact {
            // Two short lines of what the file tells (nothing unknown): when, how far and how
            // long, pace, heart rate and climb, broken between figures, never inside one.
            let s = current.summary
            var parts: [String] = []
            if s.start != nil { parts.append(MeasureText.dateTime(s.start)) }
            if let meters = s.distanceMeters { parts.append(MeasureText.distance(meters, l)) }
            if s.elapsedSeconds != nil {
                parts.append(s.movingSeconds == nil ? l.t("{elapsed} elapsed", ["elapsed": WorkoutText.duration(s.elapsedSeconds)])
                    : l.t("{elapsed} elapsed, {moving} moving", ["elapsed": WorkoutText.duration(s.elapsedSeconds), "moving": WorkoutText.duration(s.movingSeconds)]))
            }
            if s.paceSecondsPerKilometre != nil {
                parts.append(WorkoutText.pace(s.paceSecondsPerKilometre, sport: current.workout.kind, l) + "  " + WorkoutText.speed(s.speedKilometresPerHour, l))
            }
            if s.heartRateMin != nil {
                parts.append(heartMark(context) + l.t("{min}/{avg}/{max} bpm", ["min": WorkoutText.bpm(s.heartRateMin), "avg": WorkoutText.bpm(s.heartRateAverage), "max": WorkoutText.bpm(s.heartRateMax)]))
            }
            if let ascent = s.ascentMeters.flatMap({ NumberText.whole($0) }) { parts.append(l.t("climb {value} m", ["value": String(ascent)])) }
            if parts.isEmpty { parts.append(l.t("No times, distances, heart rate or altitude in this file; s lists what it has.")) }
            let separator = " · "
            var lines = [""]
            for part in parts {
                let joined = lines[lines.count - 1].isEmpty ? part : lines[lines.count - 1] + separator + part
                if joined.displayWidth <= rect.width || lines[lines.count - 1].isEmpty || lines.count == 2 {
                    lines[lines.count - 1] = joined
                } else {
                    lines.append(part)
                }
            }
            for (index, line) in lines.enumerated() {
                surface.write(line.truncated(toWidth: rect.width, ellipsis: context.glyphs.ellipsis), x: rect.x, y: rect.y + index, style: Style(.text), clip: rect)
            }
            return
        }
        var y = rect.y
        let width = min(14, rows.map(\.label.displayWidth).max() ?? 0)
        for row in rows where y < rect.maxY {
            for (index, line) in WordWrap.wrap(row.value, width: max(8, rect.width - width - 1)).enumerated() where y < rect.maxY {
                if index == 0 { surface.write(row.label, x: rect.x, y: y, style: Style(.muted), clip: rect) }
                surface.write(line, x: rect.x + width + 1, y: y, style: Style(.text, [.bold]), clip: rect)
                y += 1
            }
        }
        y += 1
        if let heading = WorkoutSummaryText.zoneHeading(current, l), y < rect.maxY {
            for line in WordWrap.wrap(heading, width: rect.width) where y < rect.maxY {
                surface.write(line, x: rect.x, y: y, style: Style(.title, [.bold]), clip: rect)
                y += 1
            }
            for (index, row) in WorkoutSummaryText.zoneRows(current, l).enumerated() where y < rect.maxY {
                surface.write(context.glyphs.ascii ? "#" : "■", x: rect.x, y: y, style: Style(.heat(index)), clip: rect)
                surface.write(row.label + "  " + row.value, x: rect.x + 2, y: y, style: Style(.text), clip: rect)
                y += 1
            }
        }
    }

    /// "♥ " before heart-rate figures; on an ASCII terminal the language's short "HR " ("FC ").
    private func heartMark(_ context: RenderContext) -> String {
        context.glyphs.ascii ? context.localizer.t("HR", context: "heart rate, short") + " " : "♥ "
    }

    private func heatStyle(_ level: Int) -> Style {
        guard level >= 0 else { return Style(.text) }
        switch viewModel.colouring {
        case .bands: return Style(.heat([0, 1, 3, 4][min(level, 3)]))
        case .zones: return Style(.heat(level))
        }
    }

    private func renderMap(_ current: WorkoutAnalysis, into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard rect.height >= 4, rect.width >= 10 else { return }
        surface.drawBox(rect, title: l.t("Route") + (viewModel.zoom > 1 ? " ×" + MeasureText.decimals(viewModel.zoom, 1, l) : ""),
                        style: Style(activeFocus == .map && drawn.chart ? .accent : .border))
        let inner = rect.inset(dx: 1, dy: 1)
        let canvasRect = Rect(x: inner.x, y: inner.y, width: inner.width, height: inner.height - 1)
        let w = current.workout
        var canvas = map.canvas(for: viewModel, analysis: current, columns: canvasRect.width, rows: canvasRect.height)
        // Start, finish and the chart cursor on top of the route.
        let g = context.glyphs
        let first = (0..<w.count).first(where: w.hasPosition)
        if let first, let last = (0..<w.count).last(where: w.hasPosition),
           let s = map.dot(ofPoint: first), let f = map.dot(ofPoint: last) {
            canvas.label(g.ascii ? "F" : "■", x: f.x, y: f.y, style: Style(.bad, [.bold]))
            canvas.label(g.ascii ? "S" : "▶", x: s.x, y: s.y, style: Style(.good, [.bold]))
        }
        // The cursor hides no marker: on the first point (as the workout opens) the start shows.
        if let i = nearestPositioned(w, viewModel.cursor), i != first, let c = map.dot(ofPoint: i) {
            canvas.label(g.ascii ? "@" : "◆", x: c.x, y: c.y, style: Style(.accent, [.bold, .reverse]))
        }
        canvas.render(into: surface, at: Point(x: canvasRect.x, y: canvasRect.y)) { level in heatStyle(level) }
        renderLegend(current, into: surface, row: inner.row(inner.height - 1), context: context)
        if activeFocus == .map { surface.parkCursor(x: inner.x, y: inner.y) }
    }

    private func nearestPositioned(_ w: Workout, _ index: Int) -> Int? {
        guard w.count > 0 else { return nil }
        var back = index, forward = index
        while back >= 0 || forward < w.count {
            if back >= 0 && w.hasPosition(back) { return back }
            if forward < w.count && w.hasPosition(forward) { return forward }
            back -= 1; forward += 1
        }
        return nil
    }

    /// "♥ 97 ▮▮▮▮ 176 bpm · ▶ start ■ finish" (or the zones), and a note when colour is off.
    private func renderLegend(_ current: WorkoutAnalysis, into surface: Surface, row: Rect, context: RenderContext) {
        let l = context.localizer
        let g = context.glyphs
        let block = g.ascii ? "#" : "▮"
        var spans: [Span] = []
        if let range = current.heartRateRange {
            spans.append(Span(heartMark(context), Style(.bad, [.bold])))
            switch viewModel.colouring {
            case .bands:
                spans.append(Span(WorkoutText.bpm(range.lowerBound) + " ", Style(.text)))
                for band in 0..<4 { spans.append(Span(block, heatStyle(band))) }
                spans.append(Span(" " + l.t("{bpm} bpm", ["bpm": WorkoutText.bpm(range.upperBound)]), Style(.text)))
            case .zones:
                for zone in 0..<5 { spans.append(Span(block, heatStyle(zone))); spans.append(Span("Z\(zone + 1) ", Style(.text))) }
                spans.append(Span(l.t("(max {bpm} bpm)", ["bpm": WorkoutText.bpm(current.summary.zoneMaximum)]), Style(.muted)))
            }
        }
        if current.hasRoute {
            spans.append(Span("  " + (g.ascii ? "S" : "▶") + " " + l.t("start", context: "route marker") + "  " + (g.ascii ? "F" : "■") + " " + l.t("finish", context: "route marker"), Style(.muted)))
        }
        if !context.colour && current.heartRateRange != nil {
            spans.append(Span("  " + l.t("Colour is off: the chart below carries the heart rate."), Style(.muted)))
        }
        // Too long for the row (a narrow terminal, a longer language): cut with an ellipsis, as
        // every line that does not fit, rather than in the middle of a word.
        surface.write(Span.truncated(spans, toWidth: row.width, ellipsis: g.ellipsis), x: row.x, y: row.y, clip: row)
    }

    /// The chart's title: what it plots, and why it is not the heart rate.
    private func chartTitle(_ chart: WorkoutChart, _ l: Localizer) -> String {
        switch chart.series {
        case .heartRate: return l.t("Heart rate")
        case .speed: return l.t("Speed (km/h) · no heart rate in this file")
        case .altitude: return l.t("Altitude (m) · no heart rate or speed in this file")
        }
    }

    private func renderChart(_ current: WorkoutAnalysis, into surface: Surface, rect: Rect, context: RenderContext) {
        let l = context.localizer
        guard rect.height >= 3, rect.width >= 10, let series = current.chart else { return }
        let title = chartTitle(series, l) + (current.hasRoute ? "" : " · " + (current.summary.positions == 1 ? l.t("one position") : l.t("no positions")))
        surface.drawBox(rect, title: title.truncated(toWidth: max(1, rect.width - 6), ellipsis: context.glyphs.ellipsis),
                        style: Style(activeFocus == .chart && drawn.map ? .accent : .border))
        let inner = rect.inset(dx: 1, dy: 1)
        let plot = Self.chartPlot(rect, current)
        let labels = Self.axisLabels(series)
        surface.write(labels[0].padded(toWidth: plot.x - inner.x - 1, alignment: .right), x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
        surface.write(labels[1].padded(toWidth: plot.x - inner.x - 1, alignment: .right), x: inner.x, y: inner.maxY - 1, style: Style(.muted), clip: inner)
        let canvas = chart.canvas(for: viewModel, analysis: current, columns: plot.width, rows: plot.height)
        canvas.render(into: surface, at: Point(x: plot.x, y: plot.y)) { level in heatStyle(level) }
        // The cursor: a reversed column, and the figures at the cursor in the status line.
        let column = min(plot.width - 1, max(0, chart.xOfPoint(viewModel.cursor) / 2))
        for y in plot.y..<plot.maxY {
            surface.highlight(x: plot.x + column, y: y, width: 1, style: Style(.accent, [.reverse]))
        }
        if activeFocus == .chart { surface.parkCursor(x: plot.x + column, y: plot.y) }
    }

    private func renderText(_ current: WorkoutAnalysis, into surface: Surface, rect: Rect, context: RenderContext) {
        TextView().render(textView, into: surface, rect: rect)
    }
}
