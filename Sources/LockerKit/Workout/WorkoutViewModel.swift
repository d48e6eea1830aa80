import FoundationEssentials

/// The Workout tab: the list of workouts (the data folder's workouts/ and the bundled sample)
/// and the opened one, with the map's zoom and pan, the colouring and the chart cursor.
public final class WorkoutViewModel: ViewModel {
    public let localizer: Localizer
    public let library: WorkoutLibrary
    private let sample: URL?
    private let maxHeartRate: Int?

    /// One row of the list (also what workouts/.index.json keeps, so big files are read once).
    public struct Item: Equatable, Sendable, Codable {
        public var url: URL
        public var isSample: Bool
        public var title: String
        public var start: Double?
        public var distanceMeters: Double?
        public var elapsedSeconds: Double?
        /// Why the file cannot be opened, when it cannot.
        public var problem: String?
    }

    public private(set) var items: [Item] = []
    public private(set) var selectedIndex = 0
    /// The opened workout.
    public private(set) var current: WorkoutAnalysis?
    public private(set) var currentFileName = ""
    /// Why the last open failed.
    public private(set) var openProblem: String?

    /// How the route and the chart are coloured.
    public enum Colouring: Equatable, Sendable {
        /// Four bands of this workout's own min–max heart rate (as the original app).
        case bands
        /// The five zones of the maximum heart rate.
        case zones
    }
    public private(set) var colouring = Colouring.bands
    /// 1 = the whole route fits; each step zooms by 1.5.
    public private(set) var zoom = 1.0
    /// Map centre offset from the fitted centre, in fractions of the fitted span.
    public private(set) var pan = (x: 0.0, y: 0.0)
    /// Index of the point under the chart cursor.
    public private(set) var cursor = 0
    /// Bumped whenever what the map shows changes (zoom, pan, colouring, workout).
    public private(set) var mapVersion = 0
    /// Bumped whenever what the chart shows changes (colouring, workout).
    public private(set) var chartVersion = 0
    /// Bumped when another workout is opened.
    public private(set) var workoutVersion = 0

    /// Rows already summarised, by "name|size|modified"; stored in workouts/.index.json.
    private var summaries: [String: Item] = [:]
    private let index: JSONRepository<[String: Item]>
    private var storedCount = -1

    public init(localizer: Localizer, library: WorkoutLibrary, sample: URL?, maxHeartRate: Int? = nil) {
        self.localizer = localizer
        self.library = library
        self.sample = sample
        self.maxHeartRate = maxHeartRate
        index = JSONRepository(url: library.directory.appendingPathComponent(".index.json"))
        if case .loaded(let stored) = index.load() { summaries = stored }
        super.init()
        reload()
    }

    // MARK: List

    /// Reads the folder again; files already summarised (same size and date) are not re-read.
    public func reload() {
        var list: [Item] = []
        for entry in library.entries() {
            list.append(item(for: entry.url, key: "\(entry.name)|\(entry.size)|\(entry.modified)", isSample: false))
        }
        if let sample, FileManager.default.fileExists(atPath: sample.path) {
            list.append(item(for: sample, key: "sample|" + sample.path, isSample: true))
        }
        items = list
        selectedIndex = min(selectedIndex, max(0, items.count - 1))
        let kept = summaries.filter { key, item in item.problem == nil && !key.hasPrefix("sample|") && list.contains { $0.url == item.url } }
        if kept.count != storedCount, FileManager.default.fileExists(atPath: library.directory.path) {
            // A cache only: when it cannot be written, the list is simply read again next time.
            try? index.save(kept)
            storedCount = kept.count
        }
        notifyChanged()
    }

    private func item(for url: URL, key: String, isSample: Bool) -> Item {
        if var cached = summaries[key], cached.problem == nil {
            cached.url = url
            cached.isSample = isSample
            return cached
        }
        var item = Item(url: url, isSample: isSample, title: url.lastPathComponent)
        do {
            let workout = try WorkoutReader.read(path: url.path)
            let summary = WorkoutAnalysis(workout).summary
            item.title = workout.title(fileName: url.lastPathComponent)
            item.start = summary.start
            item.distanceMeters = summary.distanceMeters
            item.elapsedSeconds = summary.elapsedSeconds
        } catch let error as WorkoutError {
            item.problem = error.message(localizer)
        } catch {
            item.problem = "\(error)"
        }
        summaries[key] = item
        return item
    }

    public func select(_ index: Int) {
        guard items.indices.contains(index) else { return }
        selectedIndex = index
        notifyChanged()
    }

    // MARK: Opening

    /// Opens the selected workout; false (with `openProblem`) when it cannot be read.
    @discardableResult
    public func openSelected() -> Bool {
        guard items.indices.contains(selectedIndex) else { return false }
        return open(items[selectedIndex].url)
    }

    @discardableResult
    public func open(_ url: URL) -> Bool {
        do {
            let workout = try WorkoutReader.read(path: url.path)
            current = WorkoutAnalysis(workout, maxHeartRate: maxHeartRate)
            currentFileName = url.lastPathComponent
            openProblem = nil
            zoom = 1; pan = (0, 0); cursor = 0; colouring = .bands
            mapVersion += 1
            chartVersion += 1
            workoutVersion += 1
        } catch let error as WorkoutError {
            openProblem = error.message(localizer)
        } catch {
            openProblem = "\(error)"
        }
        notifyChanged()
        return current != nil && openProblem == nil
    }

    public func close() {
        current = nil
        notifyChanged()
    }

    // MARK: Map and chart

    public func zoom(in zoomIn: Bool) {
        zoom = min(256, max(1, zoomIn ? zoom * 1.5 : zoom / 1.5))
        if zoom == 1 { pan = (0, 0) }
        mapVersion += 1
        notifyChanged()
    }

    /// Moves the view by a tenth of what is visible, staying near the route.
    public func pan(dx: Int, dy: Int) {
        let step = 0.1 / zoom
        pan.x = min(0.6, max(-0.6, pan.x + Double(dx) * step))
        pan.y = min(0.6, max(-0.6, pan.y + Double(dy) * step))
        mapVersion += 1
        notifyChanged()
    }

    public func fit() {
        zoom = 1; pan = (0, 0)
        mapVersion += 1
        notifyChanged()
    }

    public func toggleColouring() {
        colouring = colouring == .bands ? .zones : .bands
        mapVersion += 1
        chartVersion += 1
        notifyChanged()
    }

    /// Moves the chart cursor by `points`, clamped to the workout.
    public func moveCursor(by points: Int) {
        guard let current else { return }
        cursor = min(max(0, cursor + points), current.workout.count - 1)
        notifyChanged()
    }

    public func moveCursor(to index: Int) {
        guard let current else { return }
        cursor = min(max(0, index), current.workout.count - 1)
        notifyChanged()
    }

    /// The colour level of every point for the current colouring (band 0…3 of this workout's own
    /// range, or zone 0…4; -1 when unknown or below zone 1), computed once per colouring.
    public var pointLevels: [Int8] {
        if levelsVersion == chartVersion { return cachedLevels }
        levelsVersion = chartVersion
        guard let current, let range = current.heartRateRange else { cachedLevels = []; return [] }
        var result = [Int8](repeating: -1, count: current.workout.count)
        let low = range.lowerBound, span = range.upperBound - range.lowerBound
        let maximum = current.summary.zoneMaximum ?? 0
        let bands = colouring == .bands
        current.workout.heartRate.withUnsafeBufferPointer { hr in
            for i in 0..<hr.count {
                let h = Double(hr[i])
                guard !h.isNaN else { continue }
                if bands {
                    result[i] = span > 0 ? Int8(min(3, max(0, Int((h - low) / span * 4)))) : 1
                } else if maximum > 0, let zone = WorkoutAnalysis.zone(of: h, maximum: maximum) {
                    result[i] = Int8(zone)
                }
            }
        }
        cachedLevels = result
        return result
    }
    private var levelsVersion = -1
    private var cachedLevels: [Int8] = []
}
