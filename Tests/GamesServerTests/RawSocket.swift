import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the server under test, from a chosen loopback address, for what
/// no HTTP client does on purpose: holding sockets idle, trickling bytes, lying about lengths.
final class RawSocket {
    let descriptor: Int32

    /// Connects from `source` (any 127.x address is this machine) to 127.0.0.1:`port`; nil when
    /// the connection cannot be made.
    init?(port: Int, source: String = "127.0.0.1") {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else { Glibc.close(descriptor); return nil }
    }

    deinit { Glibc.close(descriptor) }

    /// Sends `text`; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What arrives within `seconds`, until the server closes the connection, or (with `until`)
    /// as soon as what arrived holds that text.
    func receive(seconds: Double, until end: String? = nil) -> (text: String, closed: Bool) {
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, left) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer.prefix(count)
            if let end, String(decoding: received, as: UTF8.self).contains(end) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// Whether the server closes the connection within `seconds` (reading whatever it sends).
    func closes(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if receive(seconds: deadline.timeIntervalSinceNow).closed { return true }
        }
        return false
    }
}
