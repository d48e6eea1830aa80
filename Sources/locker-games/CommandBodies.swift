import LockerCommandLine

/// Where each games command finds its body (in this program's extensions of the commands). A
/// command declared in `LockerCommandLine` without one here does not compile.
struct LockerGamesCommandBodies: GamesCommandBodies {
    func execute(_ command: AccountPasswordCommand) async throws { try await command.execute() }
    func execute(_ command: AccountDeleteCommand) async throws { try await command.execute() }
    func execute(_ command: AccountAdminCommand) async throws { try await command.execute() }
    func execute(_ command: AccountCreateCommand) async throws { try await command.execute() }
    func execute(_ command: LoginCommand) async throws { try await command.execute() }
    func execute(_ command: LogoutCommand) async throws { try await command.execute() }
    func execute(_ command: GamesGroundsImportCommand) async throws { try await command.execute() }
    func execute(_ command: GamesGroundsNearCommand) async throws { try await command.execute() }
    func execute(_ command: GamesCreateCommand) async throws { try await command.execute() }
    func execute(_ command: GamesEditCommand) async throws { try await command.execute() }
    func execute(_ command: GamesRosterCommand) async throws { try await command.execute() }
    func execute(_ command: GamesListCommand) async throws { try await command.execute() }
    func execute(_ command: GamesShowCommand) async throws { try await command.execute() }
    func execute(_ command: GamesBookCommand) async throws { try await command.execute() }
    func execute(_ command: GamesCancelCommand) async throws { try await command.execute() }
    func execute(_ command: GamesRemoveCommand) async throws { try await command.execute() }
    func execute(_ command: GamesCancelGameCommand) async throws { try await command.execute() }
    func execute(_ command: GamesUpcomingCommand) async throws { try await command.execute() }
    func execute(_ command: GamesTodayCommand) async throws { try await command.execute() }
    func execute(_ command: GamesICSCommand) async throws { try await command.execute() }
    func execute(_ command: GamesWhoAmICommand) async throws { try await command.execute() }
    func execute(_ command: GamesServerCommand) async throws { try await command.execute() }
    func execute(_ command: ServeCommand) async throws { try await command.execute() }
    func execute(_ command: BackupCommand) async throws { try await command.execute() }
    func execute(_ command: RestoreCommand) async throws { try await command.execute() }
    func execute(_ command: BridgeCommand) async throws { try await command.execute() }
}
