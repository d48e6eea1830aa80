/// Every change made to a value in this run, to undo and redo: each step keeps the value before
/// and after it and what the change was (`Change`, told to the user when it is undone).
///
/// Steps hold whole values; a value made of arrays (a `GradeBook`) shares every unchanged part
/// with its neighbours, so a step costs about what it changed. The oldest steps go past `limit`.
public struct UndoHistory<Value, Change> {
    public struct Step {
        public var before: Value
        public var after: Value
        public var change: Change
    }

    public private(set) var undoSteps: [Step] = []
    public private(set) var redoSteps: [Step] = []
    /// True right after `record`: the next change may join the last step (`merging`).
    private var lastWasRecord = false
    public let limit: Int

    public init(limit: Int = 500) { self.limit = limit }

    /// Records a change from `before` to `after`; anything undone before it can no longer be
    /// redone. `merging` decides whether the change joins the last step (holding an arrow key
    /// moves a mark many times but undoes as one step): it gets the last step's change and
    /// returns the joined one, or nil to keep them apart.
    public mutating func record(from before: Value, to after: Value, _ change: Change,
                                merging: (Change) -> Change? = { _ in nil }) {
        redoSteps.removeAll()
        if lastWasRecord, let last = undoSteps.last, let joined = merging(last.change) {
            undoSteps[undoSteps.count - 1] = Step(before: last.before, after: after, change: joined)
        } else {
            undoSteps.append(Step(before: before, after: after, change: change))
            if undoSteps.count > limit { undoSteps.removeFirst(undoSteps.count - limit) }
        }
        lastWasRecord = true
    }

    /// The last change undone: the value to go back to and what it was; nil when there is none.
    public mutating func undo() -> Step? {
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        lastWasRecord = false
        return step
    }

    /// The last change undone, done again; nil when there is none.
    public mutating func redo() -> Step? {
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        lastWasRecord = false
        return step
    }
}
