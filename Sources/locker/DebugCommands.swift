import ArgumentParser
import FoundationEssentials
import LockerApp
import LockerCommandLine
import LockerKit
#if canImport(Glibc)
import Glibc
#endif

/// `locker debug-save-loop FILE`: saves a grades file again and again through the Grades tab's
/// own repository, moving the first course's mark between two values, until killed. Hidden: it
/// exists for the crash tests (a SIGKILL at any moment must leave the old or the new version).
/// Prints "saving" once the first save is done.
struct DebugSaveLoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "debug-save-loop", shouldDisplay: false)

    @Argument var file: String
    @Option var count: Int = .max

    func run() throws {
        let repository = GradesViewModel.repository(URL(fileURLWithPath: file), localizer)
        guard case .loaded(var book) = repository.load(), !book.units.isEmpty, !book.units[0].courses.isEmpty else {
            fail(localizer.t("{file} is not a grades file with a course.", ["file": file]), status: 1)
        }
        var saves = 0
        while saves < count {
            book.units[0].courses[0].mark = saves % 2 == 0 ? 1 : 2
            do { try repository.save(book) } catch {
                fail(localizer.t("Your grades could not be saved: {reason}. The file keeps the last saved version.",
                                 ["reason": StorageError.explain(error, localizer)]), status: 1)
            }
            saves += 1
            // Tells a waiting test that saves are under way.
            if saves == 1 { print("saving"); fflush(stdout) }
        }
    }
}

extension DebugFault: ExpressibleByArgument {}
