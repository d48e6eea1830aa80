/// A line one tab wants seen from every tab (today's games), and whether it is urgent.
public struct AttentionLine: Equatable {
    public var text: String
    /// Urgent lines are drawn in the warning style and ring the terminal bell.
    public var urgent: Bool
    /// What an urgent line rings for (the game about to start): the bell rings once per value,
    /// whichever tab shows the line.
    public var bellID: String?

    public init(text: String, urgent: Bool = false, bellID: String? = nil) {
        self.text = text
        self.urgent = urgent
        self.bellID = bellID
    }
}

/// What a tab offers the shell to be noticed from the other tabs, without the shell naming it: a
/// line drawn above every other tab, a first look the shell starts when keys pause (or at once
/// when the tab itself is shown), and how often the line changes on its own.
public protocol AttentionSource: AnyObject {
    /// The tab that draws the line itself; the shell draws it above every other tab.
    var tab: Tab { get }
    /// False until `start` ran.
    var started: Bool { get }
    /// Starts the first look (background work only: it returns at once).
    func start()
    /// The line to show now, or nil.
    func attention() -> AttentionLine?
    /// Milliseconds after which the line changes by itself ("in 12 minutes"), or nil.
    var attentionRefresh: Int? { get }
    /// Registers a callback for changes (see `ViewModel.observe`).
    func observe(_ callback: @escaping () -> Void) -> ObservationToken
}
