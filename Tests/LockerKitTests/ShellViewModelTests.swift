import XCTest
@testable import LockerKit

final class ShellViewModelTests: XCTestCase {
    func make(_ dir: URL, choices: StartupChoices = StartupChoices(), writable: Bool = true) -> (ShellViewModel, JSONRepository<Settings>) {
        let repository = JSONRepository<Settings>(url: dir.appendingPathComponent("settings.json"))
        let localizer = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .en)
        return (ShellViewModel(localizer: localizer, repository: repository, choices: choices, writable: writable), repository)
    }

    func testTabCyclingAndNotification() throws {
        let (shell, _) = make(try makeTemporaryDirectory(self))
        var changes = 0
        let token = shell.observe { changes += 1 }
        XCTAssertEqual(shell.tab, .rules)
        shell.previousTab()
        XCTAssertEqual(shell.tab, .games, "wraps backwards")
        shell.nextTab()
        shell.nextTab()
        XCTAssertEqual(shell.tab, .penalties)
        shell.select(.penalties)
        XCTAssertEqual(changes, 3, "selecting the current tab is not a change")
        token.cancel()
    }

    func testLanguageThemeAndTabAreRemembered() throws {
        let dir = try makeTemporaryDirectory(self)
        let (shell, repository) = make(dir)
        shell.cycleLanguage()
        XCTAssertEqual(shell.language, .fr)
        XCTAssertEqual(shell.notice?.message, "Langue\u{202F}: Français")
        shell.cycleTheme()
        XCTAssertEqual(shell.theme, .light)
        shell.select(.grades)
        XCTAssertTrue(shell.hasPendingSettings, "tab changes are saved lazily")
        shell.saveSettingsIfNeeded()
        guard case .loaded(let saved) = repository.load() else { return XCTFail("settings not saved") }
        XCTAssertEqual(saved, Settings(language: .fr, theme: .light, lastTab: .grades))
        let (again, _) = make(dir, choices: StartupChoices(environmentLanguage: .es))
        XCTAssertEqual(again.language, .fr, "the saved language beats the environment")
        XCTAssertEqual(again.tab, .grades)
        XCTAssertEqual(again.theme, .light)
        let (flags, _) = make(dir, choices: StartupChoices(tab: .quiz, language: .it, theme: .mono))
        XCTAssertEqual(flags.language, .it, "the command line beats the saved setting")
        XCTAssertEqual(flags.tab, .quiz)
        XCTAssertEqual(flags.theme, .mono)
    }

    /// `L` and `T` write settings.json on a background thread, not between the key and its frame.
    func testLanguageAndThemeKeysWriteOffTheUIThread() throws {
        let dir = try makeTemporaryDirectory(self)
        let repository = ThreadRecordingRepository(JSONRepository<Settings>(url: dir.appendingPathComponent("settings.json")))
        let localizer = Localizer(directory: packageRoot.appendingPathComponent("Localization"), language: .en)
        let shell = ShellViewModel(localizer: localizer, repository: repository, choices: StartupChoices(), writable: true)
        let work = BackgroundWork()
        shell.work = work
        shell.cycleLanguage()
        shell.cycleTheme()
        XCTAssertTrue(work.waitUntilIdle())
        shell.saveSettingsIfNeeded()
        XCTAssertTrue(work.waitUntilIdle())
        XCTAssertGreaterThan(repository.saves, 0)
        XCTAssertEqual(repository.savesOnMainThread, 0, "no write on the UI thread")
        guard case .loaded(let saved) = repository.load() else { return XCTFail("settings not saved") }
        XCTAssertEqual(saved.language, .fr)
        XCTAssertEqual(saved.theme, .light)
    }

    /// Once keys pause, the catalogue of the language `L` goes to next is read on another core:
    /// `L` then reads no file (one removed after the prefetch is still shown).
    func testOtherLanguagesAreReadBeforeTheKeyAsksForThem() throws {
        let dir = try makeTemporaryDirectory(self)
        for language in ["fr", "es", "it"] {
            try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Localization/\(language).po"),
                                             to: dir.appendingPathComponent("\(language).po"))
        }
        let localizer = Localizer(directory: dir, language: .en)
        localizer.prefetch()
        let deadline = Date().addingTimeInterval(10)
        while !localizer.prefetchDone && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("fr.po"))
        localizer.setLanguage(.fr)
        XCTAssertEqual(localizer.t("Rules"), "Règles")
        XCTAssertTrue(localizer.problems.isEmpty, "\(localizer.problems)")
        // Then the next one (es), and only it: the others are read when L comes to them.
        localizer.prefetch()
        XCTAssertTrue(localizer.isPrepared(.es))
        XCTAssertFalse(localizer.isPrepared(.it))
    }

    func testNoColorForcesMonoAndThemeKeyExplains() throws {
        let (shell, _) = make(try makeTemporaryDirectory(self), choices: StartupChoices(theme: .dark, colorAllowed: false))
        XCTAssertEqual(shell.theme, .mono)
        shell.cycleTheme()
        XCTAssertEqual(shell.theme, .mono)
        XCTAssertEqual(shell.notice?.message, "Colours are off because NO_COLOR is set.")
    }

    func testCorruptSettingsAreKeptAsideAndReported() throws {
        let dir = try makeTemporaryDirectory(self)
        try Data("{ not json".utf8).write(to: dir.appendingPathComponent("settings.json"))
        let (shell, _) = make(dir, choices: StartupChoices(environmentLanguage: .es))
        XCTAssertEqual(shell.notice?.kind, .warning)
        XCTAssertTrue(shell.notice?.message.contains("settings.json.corrupt-") ?? false, shell.notice?.message ?? "")
        XCTAssertEqual(shell.language, .es, "the message is in the user's language")
        XCTAssertNotEqual(shell.notice?.message.hasPrefix("Your settings"), true)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertTrue(files.contains { $0.hasPrefix("settings.json.corrupt-") })
    }

    func testUnknownValuesAreIgnoredNotCorrupt() throws {
        let dir = try makeTemporaryDirectory(self)
        try Data(#"{"language":"de","theme":"purple","lastTab":"games","future":1}"#.utf8).write(to: dir.appendingPathComponent("settings.json"))
        let (shell, _) = make(dir)
        XCTAssertNil(shell.notice)
        XCTAssertEqual(shell.tab, .games)
        XCTAssertEqual(shell.language, .en)
        XCTAssertEqual(shell.theme, .dark)
    }

    func testReadOnlyDataDirectoryRunsWithoutSaving() throws {
        let dir = try makeTemporaryDirectory(self)
        let (shell, repository) = make(dir, writable: false)
        XCTAssertTrue(shell.readOnly)
        XCTAssertEqual(shell.notice?.kind, .warning)
        shell.select(.quiz)
        shell.saveSettingsIfNeeded()
        guard case .missing = repository.load() else { return XCTFail("nothing may be written") }
    }

    func testFailedSaveIsReported() throws {
        let dir = try makeTemporaryDirectory(self)
        let blocker = dir.appendingPathComponent("file")
        try Data().write(to: blocker)
        let repository = JSONRepository<Settings>(url: blocker.appendingPathComponent("settings.json"))
        let shell = ShellViewModel(localizer: .english, repository: repository, choices: StartupChoices(), writable: true)
        shell.select(.quiz)
        shell.saveSettingsIfNeeded()
        XCTAssertEqual(shell.notice?.kind, .error)
        XCTAssertTrue(shell.notice?.message.hasPrefix("Settings could not be saved") ?? false)
        XCTAssertTrue(shell.readOnly)
    }

    func testNoticesExpire() throws {
        let (shell, _) = make(try makeTemporaryDirectory(self))
        shell.post(.info, "hello")
        XCTAssertFalse(shell.expireNotice(now: Date().addingTimeInterval(1)))
        XCTAssertTrue(shell.expireNotice(now: Date().addingTimeInterval(5)))
        XCTAssertNil(shell.notice)
    }

    /// Issue 27, item 17: a second problem waits behind the first instead of replacing it, and
    /// gets its full time once shown; a confirmation interrupts a problem, which comes back.
    func testProblemsQueueOneAfterAnother() throws {
        let (shell, _) = make(try makeTemporaryDirectory(self))
        shell.post(.warning, "settings set aside")
        shell.post(.warning, "grades set aside")
        XCTAssertEqual(shell.notice?.message, "settings set aside")
        let later = Date().addingTimeInterval(13)
        XCTAssertTrue(shell.expireNotice(now: later))
        XCTAssertEqual(shell.notice?.message, "grades set aside", "the second comes next")
        XCTAssertFalse(shell.expireNotice(now: later.addingTimeInterval(5)), "with its own 12 s")
        shell.post(.info, "Language: Français")
        XCTAssertEqual(shell.notice?.message, "Language: Français")
        shell.clearNotice()
        XCTAssertEqual(shell.notice?.message, "grades set aside", "the interrupted problem comes back")
        shell.clearNotice()
        XCTAssertNil(shell.notice)
    }
}
