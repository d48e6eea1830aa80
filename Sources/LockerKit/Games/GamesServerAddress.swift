import FoundationEssentials

/// The form of a games server's address: `http://` or `https://`, a host, an optional port and
/// path. Checked where the address is typed (`--games-server`) and where a client is made.
public struct GamesServerAddress: Equatable, Sendable {
    /// `http` or `https`, in lower case.
    public let scheme: String
    public let host: String
    /// The address without trailing slashes, to which the API's paths are appended.
    public let base: String

    /// Nil when `text` is not an http(s) address with a host.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else { return nil }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        self.scheme = scheme
        self.host = host
        self.base = base
    }
}
