import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The Workout tab: the list of workouts (the data folder's workouts/ and the bundled sample)
/// and the opened one, with the map's zoom and pan, the colouring and the chart cursor.
///
/// Files are read off the UI thread through `BackgroundWork`: the folder is listed, new files
/// are summarised one after another (their rows say so until then), and opening a workout shows
/// how much of the file has been read; Esc cancels it.
public final class WorkoutViewModel: ViewModel {
    public let localizer: Localizer
    public let library: WorkoutLibrary
    private let maxHeartRate: Int?
    private let work: BackgroundWork

    /// One row of the list: one activity of a file (also what workouts/.index-v3.json keeps, so
    /// big files are read once).
    public struct Item: Equatable, Sendable, Codable {
        public var url: URL
        public var isSample: Bool
        public var title: String
        /// The file's sport or type, as the file says it (`SportText` names it).
        public var sport: String?
        public var start: Double?
        public var distanceMeters: Double?
        public var elapsedSeconds: Double?
        /// Why the file cannot be opened, when it cannot; `problem(_:)` says it in the interface
        /// language of the moment it is drawn (never kept in the index: such rows are read again).
        public var failure: Failure?
        /// Which activity of the file this row is (0-based), and how many the file holds.
        public var activity: Int
        public var activityCount: Int
        /// True until the file has been read in the background.
        public var pending: Bool

        public enum Failure: Equatable, Sendable {
            case workout(WorkoutError)
            /// Not a reading error Locker knows (the operating system's, say).
            case unknown
        }

        /// Why the file cannot be opened, in `l`'s language; nil when it can.
        public func problem(_ l: Localizer) -> String? {
            switch failure {
            case .workout(let error)?: return error.messageWithinFile(l)
            case .unknown?: return l.t("it could not be read")
            case nil: return nil
            }
        }

        private enum CodingKeys: String, CodingKey {
            case url, isSample, title, sport, start, distanceMeters, elapsedSeconds, activity, activityCount, pending
        }
    }

    public private(set) var items: [Item] = []
    /// What an asked-for reload found ("The workouts folder holds 3 workouts."), until the next key.
    public private(set) var reloadReport: String?
    public private(set) var selectedIndex = 0
    /// True until the folder has been listed once.
    public private(set) var isListing = true
    /// The opened workout.
    public private(set) var current: WorkoutAnalysis?
    public private(set) var currentFileName = ""
    /// The opened row (its activity number and count).
    public private(set) var currentItem: Item?
    /// Why the last open failed (or that it was cancelled).
    @Expiring public private(set) var openProblem: String?
    /// When `openProblem` goes away by itself.
    public var openProblemExpiry: Date? { $openProblem.expiresAt }

    /// A workout being opened in the background.
    public struct Opening: Equatable, Sendable {
        public var fileName: String
        /// Share of the file read, 0…1.
        public var progress: Double
    }
    public private(set) var opening: Opening?
    private var openJob: BackgroundJob?
    /// The chosen row's analysis, read ahead in the background while the list rests on it, so
    /// Enter shows a workout of up to `readAheadLimit` bytes at once instead of reading it then.
    private var readAhead: (item: Item, analysis: WorkoutAnalysis)?
    /// Reading ahead: one running and one next, however fast the selection moves.
    private lazy var readAheadJob = SingleJob<(Item, WorkoutAnalysis)?>(work) { [weak self] result in
        if case .success(let ready?) = result { self?.update(.prepared(ready.0, ready.1)) }
    }
    /// Bigger files are read only when opened (with progress, Esc cancels): reading them ahead
    /// would cost seconds of a core and their points' memory for a row that may never open.
    private let readAheadLimit: Int
    public static let defaultReadAheadLimit = 4 << 20

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

    /// Rows already summarised, by "name|size|modified" of their file.
    private var summaries: [String: [Item]] = [:]
    private var summariesLoaded = false
    /// Files of the folder in list order, with their cache keys.
    private var files: [WorkoutLibrary.ListedFile] = []
    private var summarising = false
    /// Reading the folder: one running and one next, however often `r` is pressed.
    private lazy var listJob = SingleJob<Listing>(work) { [weak self] result in
        if case .success(let listing) = result { self?.update(.listed(listing)) }
    }

    /// The summaries cache in the workouts folder (a cache only: rebuilt when absent or unreadable).
    var indexURL: URL { library.directory.appendingPathComponent(".index-v3.json") }

    /// `readAheadLimit`: the biggest file (bytes) read ahead while its row is chosen.
    public init(localizer: Localizer, library: WorkoutLibrary, maxHeartRate: Int? = nil, work: BackgroundWork,
                readAheadLimit: Int = WorkoutViewModel.defaultReadAheadLimit) {
        self.localizer = localizer
        self.readAheadLimit = readAheadLimit
        self.library = library
        self.maxHeartRate = maxHeartRate
        self.work = work
        super.init()
        reload()
    }

    // MARK: List

    /// Lists the folder again in the background; files already summarised (same size and
    /// date) are not re-read. `announce` says what was found when it is done (the user asked).
    public func reload(announce: Bool = false) {
        reloadReport = nil
        let library = self.library, index = indexURL
        let needsIndex = !summariesLoaded
        listJob.request { _ -> Listing in
            var listing = Listing(announce: announce, files: library.listedFiles())
            if needsIndex, case .loaded(let stored) = JSONRepository<[String: [Item]]>(url: index).load() {
                listing.index = stored
            }
            return listing
        }
    }

    /// Forgets the reload report (the next key came).
    public func dismissReloadReport() {
        guard reloadReport != nil else { return }
        reloadReport = nil
        notifyChanged()
    }

    /// What listing the folder finds.
    public struct Listing: @unchecked Sendable {
        /// Whether the user asked (`r`): what was found is then said.
        var announce: Bool
        var files: [WorkoutLibrary.ListedFile]
        var index: [String: [Item]]?
    }

    private func rebuildItems() {
        var list: [Item] = []
        for file in files {
            if let rows = summaries[file.key], !rows.isEmpty {
                list += rows.map { row in
                    var row = row
                    row.url = file.url
                    row.isSample = file.isSample
                    return row
                }
            } else {
                list.append(Item(url: file.url, isSample: file.isSample, title: file.url.lastPathComponent, activity: 0,
                                 activityCount: 1, pending: true))
            }
        }
        // Newest first by the workout's own start, as KEYS.md promises; rows without a date yet
        // (being read, or unreadable) after them; ties by file name and activity, so the order
        // is the same on every start.
        list.sort { a, b in
            switch (a.start, b.start) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                if a.failure == nil, b.failure != nil { return true }
                if a.failure != nil, b.failure == nil { return false }
                let (nameA, nameB) = (a.url.lastPathComponent, b.url.lastPathComponent)
                return nameA != nameB ? nameA < nameB : a.activity < b.activity
            }
        }
        // The row the user chose stays chosen as rows move; until they choose, the newest stays.
        let selectedURL = userChoseRow && items.indices.contains(selectedIndex) ? items[selectedIndex].url : nil
        let selectedActivity = items.indices.contains(selectedIndex) ? items[selectedIndex].activity : 0
        items = list
        if let selectedURL, let same = list.firstIndex(where: { $0.url == selectedURL && $0.activity == selectedActivity }) {
            selectedIndex = same
        }
        selectedIndex = min(selectedIndex, max(0, items.count - 1))
        readSelectedAhead()
        notifyChanged()
    }

    /// Reads the next file not summarised yet, in the background, one at a time.
    private func summariseNext() {
        guard !summarising, let file = files.first(where: { summaries[$0.key] == nil }) else { return }
        summarising = true
        work.start({ _ in try WorkoutViewModel.summarise(file.url, isSample: file.isSample) },
                   completion: { [weak self] result in self?.update(.summarised(key: file.key, result.mapError { $0 })) })
    }

    /// The list rows of one file: one per activity, or one that says why it cannot be read.
    /// Reads a file's activities for its list rows (on a background thread).
    static func summarise(_ url: URL, isSample: Bool) throws -> [Item] {
        let name = url.lastPathComponent
        let workout = try WorkoutReader.read(path: url.path)
        let activities = WorkoutActivities.split(workout)
        return activities.enumerated().map { index, activity in
            let summary = WorkoutAnalysis(activity).summary
            return Item(url: url, isSample: isSample, title: activity.title(fileName: name), sport: activity.kind,
                        start: summary.start, distanceMeters: summary.distanceMeters, elapsedSeconds: summary.elapsedSeconds,
                        activity: index, activityCount: activities.count, pending: false)
        }
    }

    /// The row of a file that could not be read (its reason is worded when drawn).
    private func unreadable(_ file: WorkoutLibrary.ListedFile, _ error: Error) -> Item {
        Item(url: file.url, isSample: file.isSample, title: file.url.lastPathComponent,
             failure: (error as? WorkoutError).map { .workout($0) } ?? .unknown, activity: 0, activityCount: 1, pending: false)
    }

    /// Writes the cache of readable files in the background (a cache only: when it cannot be
    /// written, the list is simply read again next time).
    private func saveIndex() {
        let kept = summaries.filter { key, rows in !key.hasPrefix("sample|") && rows.allSatisfy { $0.failure == nil } }
        let index = indexURL, directory = library.directory
        let old = library.directory.appendingPathComponent(".index.json")
        work.start({ _ in
            guard FileManager.default.fileExists(atPath: directory.path) else { return }
            try? JSONRepository<[String: [Item]]>(url: index).save(kept)
            // The cache of Locker 1.x (one row per file) is replaced by this one.
            try? FileManager.default.removeItem(at: old)
        }, completion: { _ in })
    }

    /// Whether the user moved in the list (until then the first row, the newest, is chosen).
    private var userChoseRow = false

    public func select(_ index: Int) {
        guard items.indices.contains(index) else { return }
        selectedIndex = index
        userChoseRow = true
        openProblem = nil
        readSelectedAhead()
        notifyChanged()
    }

    /// Starts reading the chosen row ahead (see `readAhead`), unless it is read already, cannot
    /// be read, or is over `readAheadLimit`.
    private func readSelectedAhead() {
        guard current == nil, opening == nil, items.indices.contains(selectedIndex) else { return }
        let item = items[selectedIndex]
        guard item.failure == nil, !item.pending, readAhead?.item != item else { return }
        let maxHeartRate = self.maxHeartRate, limit = readAheadLimit
        readAheadJob.request { job -> (Item, WorkoutAnalysis)? in
            var info = stat()
            guard stat(item.url.path, &info) == 0, Int(info.st_size) <= limit else { return nil }
            return (item, try WorkoutViewModel.analyse(item, maxHeartRate: maxHeartRate, job: job))
        }
    }

    /// Reads a row's file and analyses its activity (on a background thread), reporting how much
    /// is read and stopping when the job is cancelled.
    static func analyse(_ item: Item, maxHeartRate: Int?, job: BackgroundJob) throws -> WorkoutAnalysis {
        let workout = try WorkoutReader.read(path: item.url.path) { share in
            job.report(share)
            return !job.isCancelled
        }
        let activities = WorkoutActivities.split(workout)
        return WorkoutAnalysis(activities[min(item.activity, activities.count - 1)], maxHeartRate: maxHeartRate)
    }

    // MARK: Opening

    /// Opens the selected row in the background; `opening` shows the progress until it is
    /// there (or `openProblem` says why not).
    public func openSelected() {
        guard items.indices.contains(selectedIndex) else { return }
        open(items[selectedIndex])
    }

    private func open(_ item: Item) {
        openJob?.cancel()
        openProblem = nil
        if let ready = readAhead, ready.item == item {
            show(ready.analysis, of: item)
            notifyChanged()
            return
        }
        let maxHeartRate = self.maxHeartRate
        opening = Opening(fileName: item.url.lastPathComponent, progress: 0)
        openJob = work.start({ job -> WorkoutAnalysis in try WorkoutViewModel.analyse(item, maxHeartRate: maxHeartRate, job: job) },
                             progress: { [weak self] share in self?.update(.openProgress(share)) },
                             completion: { [weak self] result in self?.update(.opened(item, result)) })
        notifyChanged()
    }

    /// Makes an analysed row the opened workout, with the map fitted and the cursor at its start.
    private func show(_ analysis: WorkoutAnalysis, of item: Item) {
        current = analysis
        currentFileName = item.url.lastPathComponent
        currentItem = item
        zoom = 1; pan = (0, 0); cursor = 0; colouring = .bands
        mapVersion += 1
        chartVersion += 1
        workoutVersion += 1
    }

    // MARK: Results

    /// Every background result — the folder listed, a file summarised, a workout's progress and
    /// its analysis — comes through here, on the UI thread (Bubble Tea's `Update(msg)`).
    public func update(_ message: WorkoutMessage) {
        switch message {
        case .listed(let listing):
            if let stored = listing.index { summaries.merge(stored) { mine, _ in mine } }
            summariesLoaded = true
            files = listing.files
            isListing = false
            if listing.announce {
                let count = listing.files.filter { !$0.isSample }.count
                reloadReport = localizer.n("The workouts folder holds {count} file.", "The workouts folder holds {count} files.", count: count)
            }
            rebuildItems()
            summariseNext()
        case .summarised(let key, let result):
            summarising = false
            guard let file = files.first(where: { $0.key == key }) else { return summariseNext() }
            switch result {
            case .success(let rows): summaries[key] = rows
            case .failure(let error): summaries[key] = [unreadable(file, error)]
            }
            rebuildItems()
            if !files.contains(where: { self.summaries[$0.key] == nil }) { saveIndex() }
            summariseNext()
        case .openProgress(let share):
            guard opening != nil else { return }
            opening?.progress = share
            notifyChanged()
        case .opened(let item, let result):
            opening = nil
            openJob = nil
            switch result {
            case .success(let analysis):
                show(analysis, of: item)
            case .failure(let error as WorkoutError):
                openProblem = error.message(localizer)
            case .failure(is CancellationError):
                break
            case .failure:
                openProblem = localizer.t("{file} could not be read.", ["file": item.url.lastPathComponent])
            }
            notifyChanged()
        case .prepared(let item, let analysis):
            // Kept only while it is still the chosen row's (nothing on screen changes).
            guard items.indices.contains(selectedIndex), items[selectedIndex] == item else { return readSelectedAhead() }
            readAhead = (item, analysis)
        }
    }

    /// Stops opening; the list stays as it was.
    public func cancelOpening() {
        guard opening != nil else { return }
        openJob?.cancel()
        openJob = nil
        opening = nil
        $openProblem.confirm(localizer.t("Opening cancelled."))
        notifyChanged()
    }

    public func close() {
        current = nil
        readSelectedAhead()
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

/// What the background brings back to the Workout tab, through `WorkoutViewModel.update`.
public enum WorkoutMessage {
    /// The workouts folder as listed (with the summaries cache when it was read).
    case listed(WorkoutViewModel.Listing)
    /// One file's list rows, or why it cannot be read.
    case summarised(key: String, Result<[WorkoutViewModel.Item], Error>)
    /// How much of the workout being opened is read (0…1).
    case openProgress(Double)
    /// The workout opened from a row, or why it could not be.
    case opened(WorkoutViewModel.Item, Result<WorkoutAnalysis, Error>)
    /// The chosen row's workout, read ahead while the list rests on it.
    case prepared(WorkoutViewModel.Item, WorkoutAnalysis)
}
