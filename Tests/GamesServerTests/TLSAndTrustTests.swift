import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL
import XCTest
@testable import LockerGames
@testable import LockerKit

/// A club's own certificate: refused until the player trusts it, then used; old TLS refused.
final class TLSAndTrustTests: XCTestCase {
    var dir: URL!
    var server: TestServer!
    var port: Int { server.port }

    /// A self-signed certificate for 127.0.0.1 and localhost, made with the openssl command.
    func makeCertificate(name: String) throws -> (certificate: String, key: String) {
        let certificate = dir.appendingPathComponent("\(name).pem").path, key = dir.appendingPathComponent("\(name).key").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=\(name)",
                             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-addext", "basicConstraints=critical,CA:TRUE"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("openssl could not make a certificate") }
        return (certificate, key)
    }

    override func setUp() async throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("games-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let (certificate, key) = try makeCertificate(name: "club")
        server = try await TestServer.start { options, _ in
            options.tlsCertificate = certificate
            options.tlsKey = key
        }
    }

    override func tearDown() async throws {
        await server.stop()
        try? FileManager.default.removeItem(at: dir)
    }

    func testAClubCertificateIsRefusedInPlainWordsUntilTrusted() async throws {
        let url = "https://127.0.0.1:\(port)"
        let started = Date()
        defer { XCTAssertLessThan(Date().timeIntervalSince(started), 5, "refusals are said at once") }
        do {
            _ = try await GamesHTTPClient(url: url).grounds(near: .postcode("3977"))
            XCTFail("an untrusted certificate must be refused")
        } catch {
            XCTAssertEqual(error as? GamesError, .untrustedCertificate("127.0.0.1"))
            XCTAssertFalse((error as? GamesError)?.message(.english).contains("BoringSSL") ?? true)
        }
        let trusted = try GamesHTTPClient(url: url, trust: GamesTrust(files: [dir.appendingPathComponent("club.pem").path]))
        let grounds = try await trusted.grounds(near: .postcode("3977"))
        XCTAssertEqual(grounds.count, 0, "answered (this store has no grounds)")
        // Another certificate is still refused, trusting the club's or not.
        let other = try makeCertificate(name: "other")
        do {
            _ = try await GamesHTTPClient(url: url, trust: GamesTrust(files: [other.certificate])).grounds(near: .postcode("3977"))
            XCTFail("trusting another certificate trusts nothing else")
        } catch {
            XCTAssertEqual(error as? GamesError, .untrustedCertificate("127.0.0.1"))
        }
        XCTAssertThrowsError(try GamesHTTPClient(url: url, trust: GamesTrust(files: [dir.appendingPathComponent("club.key").path])))
    }

    func testTheStandardVariablesAreRead() throws {
        let pem = dir.appendingPathComponent("club.pem").path
        XCTAssertEqual(GamesTrust.from(option: nil, environment: ["SSL_CERT_FILE": pem]).files, [pem])
        XCTAssertEqual(GamesTrust.from(option: "/a.pem", environment: ["SSL_CERT_DIR": dir.path]).files,
                       ["/a.pem", pem], "the option first, then each .pem and .crt of the folder")
    }

    func testTLSOlderThan12IsRefused() async throws {
        for (version, accepted) in [(TLSVersion.tlsv11, false), (.tlsv12, true)] {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.maximumTLSVersion = version
            tls.minimumTLSVersion = .tlsv1
            tls.certificateVerification = .none
            var configuration = HTTPClient.Configuration()
            configuration.tlsConfiguration = tls
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            var request = HTTPClientRequest(url: "https://127.0.0.1:\(port)/healthz")
            request.method = .GET
            do {
                let response = try await client.execute(request, timeout: .seconds(5))
                XCTAssertTrue(accepted, "TLS \(version) must be refused")
                XCTAssertEqual(response.status, .ok)
            } catch {
                XCTAssertFalse(accepted, "TLS \(version): \(error)")
            }
            try await client.shutdown()
        }
    }
}
