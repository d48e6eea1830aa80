import Dispatch
import XCTest
@testable import LockerKit

/// `SingleJob` (issue 29, item 6): requests of one kind while one runs merge into one next job.
final class SingleJobTests: XCTestCase {
    func testABurstOfRequestsCostsOneRunningAndOneNextJob() {
        let work = BackgroundWork()
        let gate = DispatchSemaphore(value: 0)
        var delivered: [Int] = []
        let job = SingleJob<Int>(work) { result in
            if case .success(let value) = result { delivered.append(value) }
        }
        // The first request runs (and waits on the gate); nine more arrive meanwhile.
        job.request { _ in gate.wait(); return 1 }
        for value in 2...10 { job.request { _ in value } }
        XCTAssertTrue(job.isRunning)
        gate.signal()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(delivered, [1, 10], "the running job, then only the last request")
        XCTAssertFalse(job.isRunning)
    }

    func testCancelDropsTheRunningAndTheNextJob() {
        let work = BackgroundWork()
        let gate = DispatchSemaphore(value: 0)
        var delivered: [Int] = []
        let job = SingleJob<Int>(work) { result in
            if case .success(let value) = result { delivered.append(value) }
        }
        job.request { _ in gate.wait(); return 1 }
        job.request { _ in 2 }
        job.cancel()
        gate.signal()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(delivered, [])
        job.request { _ in 3 }
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertEqual(delivered, [3])
    }
}
