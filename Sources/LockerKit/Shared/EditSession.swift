/// Editing on a copy: `begin` takes a copy of the model, every edit changes only the copy, and
/// `end(cancel:)` either returns the copy to be committed or throws it away — adds and deletes
/// included.
public struct EditSession<Model: Equatable>: Equatable {
    /// The model as it was when editing began.
    public let original: Model
    /// The copy being edited.
    public var draft: Model

    public init(_ model: Model) {
        original = model
        draft = model
    }

    /// Whether the draft differs from the original.
    public var hasChanges: Bool { draft != original }
}

/// The part of a view-model that edits one model on a copy.
///
/// ```swift
/// editor.beginEditing(unit)
/// editor.update { $0.name = "New name" }
/// let committed = editor.endEditing(cancel: false)   // the edited copy, or nil when cancelled
/// ```
public struct Editor<Model: Equatable>: Equatable {
    public private(set) var session: EditSession<Model>?

    public init() {}

    public var isEditing: Bool { session != nil }
    public var draft: Model? { session?.draft }
    public var hasChanges: Bool { session?.hasChanges ?? false }

    public mutating func beginEditing(_ model: Model) {
        session = EditSession(model)
    }

    /// Changes the draft; does nothing when not editing.
    public mutating func update(_ change: (inout Model) -> Void) {
        guard var current = session else { return }
        change(&current.draft)
        session = current
    }

    /// Ends editing: returns the draft to commit, or nil when `cancel` is true (everything done
    /// since `beginEditing` is discarded).
    @discardableResult
    public mutating func endEditing(cancel: Bool) -> Model? {
        defer { session = nil }
        return cancel ? nil : session?.draft
    }
}
