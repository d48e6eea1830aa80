import LockerKit
import Foundation
import AsyncHTTPClient
import NIOSSL
import Synchronization

/// Which certificate authorities a player's client trusts besides the system's: a club that
/// runs its server with its own or a self-signed certificate hands its players the
/// certificate (README, "Run a games server for a club"). Untrusted certificates are still
/// refused.
public struct GamesTrust: Sendable, Hashable {
    /// PEM files of extra certificate authorities (or of the server's own certificate).
    public var files: [String]

    public init(files: [String] = []) { self.files = files }

    /// `--games-ca FILE` first, then the OpenSSL variables every TLS client reads:
    /// `SSL_CERT_FILE` (one PEM file) and `SSL_CERT_DIR` (a folder of them, `*.pem` and `*.crt`).
    public static func from(option: String?, environment: [String: String]) -> GamesTrust {
        var files: [String] = []
        if let option, !option.isEmpty { files.append(option) }
        if let file = environment["SSL_CERT_FILE"], !file.isEmpty { files.append(file) }
        if let dir = environment["SSL_CERT_DIR"], !dir.isEmpty {
            for folder in dir.split(separator: ":").map(String.init) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                files += names.filter { $0.hasSuffix(".pem") || $0.hasSuffix(".crt") }.sorted().map { folder + "/" + $0 }
            }
        }
        return GamesTrust(files: files)
    }

    /// The HTTP client for this trust, made once per process and kept (AsyncHTTPClient wants
    /// clients shut down, and these live as long as the process). A connection that cannot be
    /// made fails the request at once instead of being retried until the time limit: a server
    /// that is down, a name that does not resolve or a certificate that is not trusted is said
    /// within a second. A file that holds no certificate is `GamesError.badCertificateFile`.
    func httpClient() throws -> HTTPClient {
        try GamesTrust.clients.withLock { clients in
            if let client = clients[self] { return client }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.minimumTLSVersion = .tlsv12
            for file in files {
                guard let certificates = try? NIOSSLCertificate.fromPEMFile(file), !certificates.isEmpty else {
                    throw GamesError.badCertificateFile(file)
                }
                tls.additionalTrustRoots.append(.certificates(certificates))
            }
            var configuration = HTTPClient.Configuration()
            configuration.tlsConfiguration = tls
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.timeout.connect = .seconds(5)
            // The API never redirects; following one could carry a password to plain http.
            configuration.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[self] = client
            return client
        }
    }

    private static let clients = Mutex<[GamesTrust: HTTPClient]>([:])

    /// A TLS failure in plain words: the server's certificate is not trusted here, or is for
    /// another name. nil for anything else.
    static func refusal(_ error: Error, host: String) -> GamesError? {
        let text = String(reflecting: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificateVerify") { return .untrustedCertificate(host) }
        if let ssl = error as? NIOSSLExtraError, ssl == .failedToValidateHostname { return .certificateForAnotherName(host) }
        if text.contains("failedToValidateHostname") { return .certificateForAnotherName(host) }
        return nil
    }
}
