import Foundation
import XCTest

/// docs/games-api.yaml and the server's routes name the same operations, so the one written
/// contract cannot drift from what `GamesRoutes` serves.
final class OpenAPIDocumentTests: XCTestCase {
    /// "GET /v1/games/{id}" for every operation in the document.
    func documented() throws -> Set<String> {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/games-api.yaml"), encoding: .utf8)
        var operations = Set<String>()
        var path: String?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") { inPaths = true; continue }
            if inPaths, !line.isEmpty, !line.hasPrefix(" ") { inPaths = false }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") { path = String(line.dropFirst(2).dropLast()); continue }
            for method in ["get", "post", "patch", "delete", "put"] where line == "    \(method):" {
                if let path { operations.insert(method.uppercased() + " " + path) }
            }
        }
        return operations
    }

    /// The same from the route table in GamesServer.swift (`router.get("/healthz")`, `v1.post("games/:id/booking")`).
    func served() throws -> Set<String> {
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Sources/LockerGames/Server/GamesServer.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"(router|v1)\.(get|post|patch|delete|put)\("([^"]+)"\)"#)
        var operations = Set<String>()
        for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
            let group = { (i: Int) in String(source[Range(match.range(at: i), in: source)!]) }
            var path = group(3).split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            path = (group(1) == "v1" ? "/v1/" : "/") + path.drop { $0 == "/" }
            operations.insert(group(2).uppercased() + " " + path)
        }
        return operations
    }

    func testTheDocumentDescribesExactlyTheServedRoutes() throws {
        let documented = try documented(), served = try served()
        XCTAssertGreaterThanOrEqual(served.count, 15)
        XCTAssertEqual(documented.subtracting(served), [], "documented but not served")
        XCTAssertEqual(served.subtracting(documented), [], "served but not documented")
    }
}
