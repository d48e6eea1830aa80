#if canImport(Glibc)
import Glibc
#endif

/// IP addresses as text, read by the C library's parser: never a name look-up.
public enum IPAddress {
    /// The address as 4 or 16 bytes; an IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is the
    /// IPv4 address. Brackets around an IPv6 address are allowed. nil when it is not an address.
    public static func bytes(of text: String) -> [UInt8]? {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes.suffix(4)) }
            return bytes
        }
        return nil
    }

    /// Whether `host` is this machine: an address in 127.0.0.0/8, `::1`, or exactly `localhost`.
    /// Decided from the text before any look-up, so `127.0.0.1.example.org` is not.
    public static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        guard let bytes = bytes(of: host) else { return false }
        return bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }
}
