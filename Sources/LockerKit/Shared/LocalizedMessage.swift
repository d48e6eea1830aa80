/// A message translated when it is shown, not when it is made: errors found off the UI thread
/// by code that holds no localizer (file readers) carry one, and the screen or the command line
/// turns it into the interface language.
public struct LocalizedMessage: Equatable, Sendable, CustomStringConvertible {
    public let msgid: String
    public let arguments: [String: String]

    /// The message `msgid` (English, as in the catalogues) with its `{placeholders}` filled
    /// from `arguments`, translated later by `text(_:)`.
    public static func t(_ msgid: String, _ arguments: [String: String] = [:]) -> LocalizedMessage {
        LocalizedMessage(msgid: msgid, arguments: arguments)
    }

    /// The message in the localizer's language; nested messages in `arguments` are plain text.
    public func text(_ l: Localizer) -> String { l.t(msgid, arguments) }

    /// English, for logs and test failures.
    public var description: String { Localizer.fill(msgid, arguments) }
}
