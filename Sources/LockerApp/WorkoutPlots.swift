import FoundationEssentials
import LockerKit
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Draws a workout's route on a braille canvas: longitude scaled by cos(latitude) so the shape
/// is true, each cell coloured by the highest heart rate drawn into it, the line broken at
/// pauses. The canvas is kept until the size, zoom, pan, colouring or workout change.
final class RouteMapPlot {
    private var cacheKey = ""
    private var canvas = BrailleCanvas(columns: 0, rows: 0)
    /// Projection of the cached canvas, on the projected offsets: dot = (x − left) × scale.
    private var left: Float = 0, top: Float = 0, scale: Float = 1
    private var cosLatitude = 1.0
    /// Per workout: each point projected once, as offsets from the south-west corner (Float is
    /// then precise to millimetres). Colour levels come from the view-model, cached there.
    private var projectedVersion = -1
    private var projectedX: [Float] = [], projectedY: [Float] = []
    private var minX = 0.0, minY = 0.0, spanX = 1.0, spanY = 1.0
    private var hasRoute = false

    private func prepare(_ model: WorkoutViewModel, _ analysis: WorkoutAnalysis) {
        let w = analysis.workout
        guard projectedVersion != model.workoutVersion else { return }
        projectedVersion = model.workoutVersion
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        for i in 0..<w.count where w.hasPosition(i) {
            minLat = min(minLat, w.latitude[i]); maxLat = max(maxLat, w.latitude[i])
            minLon = min(minLon, w.longitude[i]); maxLon = max(maxLon, w.longitude[i])
        }
        hasRoute = minLat.isFinite
        guard hasRoute else { return }
        cosLatitude = cos((minLat + maxLat) / 2 * .pi / 180)
        minX = minLon * cosLatitude
        minY = minLat
        spanX = max((maxLon - minLon) * cosLatitude, 1e-9)
        spanY = max(maxLat - minLat, 1e-9)
        projectedX = [Float](repeating: .nan, count: w.count)
        projectedY = [Float](repeating: .nan, count: w.count)
        for i in 0..<w.count {
            guard w.hasPosition(i) else { continue }
            projectedX[i] = Float(w.longitude[i] * cosLatitude - minX)
            projectedY[i] = Float(w.latitude[i] - minY)
        }
    }

    func canvas(for model: WorkoutViewModel, analysis: WorkoutAnalysis, columns: Int, rows: Int) -> BrailleCanvas {
        let key = "\(columns)x\(rows)|\(model.mapVersion)"
        if key == cacheKey { return canvas }
        cacheKey = key
        prepare(model, analysis)
        var canvas = BrailleCanvas(columns: columns, rows: rows)
        guard hasRoute, canvas.dotWidth > 2, canvas.dotHeight > 2 else {
            self.canvas = canvas
            return canvas
        }
        // Braille dots are about square in a terminal cell of 1 × 2.
        let fitScale = min(Double(canvas.dotWidth - 2) / spanX, Double(canvas.dotHeight - 2) / spanY)
        let zoomed = fitScale * model.zoom
        let centreX = spanX / 2 + model.pan.x * spanX
        let centreY = spanY / 2 - model.pan.y * spanY
        left = Float(centreX - Double(canvas.dotWidth) / 2 / zoomed)
        top = Float(centreY + Double(canvas.dotHeight) / 2 / zoomed)
        scale = Float(zoomed)
        let breaks = analysis.breakBefore
        let levels = model.pointLevels
        let s = scale, ox = left, oy = top
        projectedX.withUnsafeBufferPointer { xs in
            projectedY.withUnsafeBufferPointer { ys in
                levels.withUnsafeBufferPointer { lv in
                    breaks.withUnsafeBufferPointer { br in
                        var previousX = Int.min, previousY = 0
                        for i in 0..<xs.count {
                            let fx = xs[i]
                            guard !fx.isNaN else { continue }
                            let (x, y) = Self.dot(fx, ys[i], left: ox, top: oy, scale: s)
                            // No heart rate: no levels, the plain colour.
                            let level = i < lv.count ? Int(lv[i]) : -1
                            if previousX != Int.min && !br[i] {
                                // Most points of a long workout land on the dot of the one before.
                                if previousX == x && previousY == y { canvas.set(x: x, y: y, level: level); continue }
                                canvas.line(from: (previousX, previousY), to: (x, y), level: level)
                            } else {
                                canvas.set(x: x, y: y, level: level)
                            }
                            previousX = x; previousY = y
                        }
                    }
                }
            }
        }
        self.canvas = canvas
        return canvas
    }

    /// The dot of point `index` in the cached canvas (may be outside it), nil without a
    /// position. The same computation as the route's own dots, in the same precision: a marker
    /// sits on its line, not a cell beside it.
    func dot(ofPoint index: Int) -> (x: Int, y: Int)? {
        guard projectedX.indices.contains(index), !projectedX[index].isNaN else { return nil }
        return Self.dot(projectedX[index], projectedY[index], left: left, top: top, scale: scale)
    }

    @inline(__always)
    private static func dot(_ x: Float, _ y: Float, left: Float, top: Float, scale: Float) -> (x: Int, y: Int) {
        let limit: Float = 1e6
        return (Int(max(-limit, min(limit, (x - left) * scale)).rounded(.down)), Int(max(-limit, min(limit, (top - y) * scale)).rounded(.down)))
    }
}

/// The workout's chart series (heart rate, else speed, else altitude) over time (or over the
/// points, when the file has no time) on a braille canvas.
final class WorkoutChartPlot {
    private var cacheKey = ""
    private var canvas = BrailleCanvas(columns: 0, rows: 0)
    /// Dot column of every point, per workout and width.
    private var columnsKey = ""
    private var xs: [Int32] = []

    /// The dot column of a point in the last drawn chart.
    func xOfPoint(_ index: Int) -> Int { xs.indices.contains(index) ? Int(xs[index]) : 0 }

    func canvas(for model: WorkoutViewModel, analysis: WorkoutAnalysis, columns: Int, rows: Int) -> BrailleCanvas {
        let key = "\(columns)x\(rows)|\(model.chartVersion)"
        if key == cacheKey { return canvas }
        cacheKey = key
        var canvas = BrailleCanvas(columns: columns, rows: rows)
        let w = analysis.workout
        guard let chart = analysis.chart, w.count > 1, canvas.dotWidth > 1, canvas.dotHeight > 1 else {
            self.canvas = canvas
            return canvas
        }
        let xKey = "\(canvas.dotWidth)|\(model.workoutVersion)"
        if xKey != columnsKey {
            columnsKey = xKey
            xs = WorkoutChartPlot.columns(analysis, width: canvas.dotWidth)
        }
        // A margin of 2 % of the range (at least 1) keeps the extremes off the box.
        let margin = max(1, (chart.range.upperBound - chart.range.lowerBound) * 0.02)
        let low = chart.range.lowerBound - margin, span = max(chart.range.upperBound + margin - low, 1)
        let height = Double(canvas.dotHeight - 1)
        // One pass gathers each dot column's lowest and highest heart rate and its highest
        // level; the columns are then drawn as short vertical strokes joined to their neighbours.
        let width = canvas.dotWidth
        var lowest = [Float](repeating: .infinity, count: width)
        var highest = [Float](repeating: -.infinity, count: width)
        var columnLevel = [Int](repeating: -1, count: width)
        // Colour by heart-rate level only when the heart rate is what is drawn.
        let levels = chart.series == .heartRate && model.pointLevels.count == w.count ? model.pointLevels : [Int8](repeating: -1, count: w.count)
        chart.values.withUnsafeBufferPointer { hrs in
            levels.withUnsafeBufferPointer { lv in
                xs.withUnsafeBufferPointer { columns in
                    for i in 0..<hrs.count {
                        let hr = hrs[i]
                        guard !hr.isNaN else { continue }
                        let x = Int(columns[i])
                        if hr < lowest[x] { lowest[x] = hr }
                        if hr > highest[x] { highest[x] = hr }
                        if Int(lv[i]) > columnLevel[x] { columnLevel[x] = Int(lv[i]) }
                    }
                }
            }
        }
        func y(_ hr: Float) -> Int { Int((height - (Double(hr) - low) / span * height).rounded()) }
        for x in 0..<width where highest[x] >= lowest[x] {
            let top = y(highest[x]), bottom = y(lowest[x])
            canvas.line(from: (x, top), to: (x, bottom), level: columnLevel[x])
            if x > 0 && highest[x - 1] >= lowest[x - 1] {
                // Join to the previous column where the two ranges are closest.
                let previousTop = y(highest[x - 1]), previousBottom = y(lowest[x - 1])
                if previousBottom < top { canvas.line(from: (x - 1, previousBottom), to: (x, top), level: columnLevel[x]) }
                else if previousTop > bottom { canvas.line(from: (x - 1, previousTop), to: (x, bottom), level: columnLevel[x]) }
            }
        }
        self.canvas = canvas
        return canvas
    }

    /// Dot column of each point: by time when the file has it (points without time take the
    /// time of the point before), else by index.
    static func columns(_ analysis: WorkoutAnalysis, width: Int) -> [Int32] {
        let w = analysis.workout
        let last = Double(max(1, width - 1))
        var result = [Int32](repeating: 0, count: w.count)
        if let start = analysis.summary.start, let elapsed = analysis.summary.elapsedSeconds, elapsed > 0 {
            var known = start
            for i in 0..<w.count {
                if !w.time[i].isNaN { known = w.time[i] }
                result[i] = Int32(max(0, min(last, ((known - start) / elapsed * last).rounded())))
            }
        } else {
            let count = Double(max(1, w.count - 1))
            for i in 0..<w.count { result[i] = Int32((Double(i) / count * last).rounded()) }
        }
        return result
    }
}
