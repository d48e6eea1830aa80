import FoundationEssentials

extension MeetJournalError {
    /// The error as one sentence in the interface language.
    public func localized(_ localizer: Localizer) -> String {
        switch self {
        case .notAMeet(let path): return localizer.t("{path} is not a meet folder: make one with locker meet new.", ["path": path])
        case .alreadyAMeet(let path): return localizer.t("{path} already holds a meet; nothing was changed.", ["path": path])
        case .newerFormat(let path): return localizer.t("The meet in {path} was written by a newer Locker; update Locker to use it. Nothing was changed.", ["path": path])
        case .altered(let line): return localizer.t("The journal was altered at line {line}: it no longer matches the lines before it.", ["line": String(line)])
        case .cannotWrite(let path, let code): return StorageError.writeFailed(path: path, code: code).localized(localizer)
        }
    }
}

extension MeetError {
    /// The error as one sentence in the interface language.
    public func localized(_ localizer: Localizer) -> String {
        switch self {
        case .noSuchDiver(let name): return localizer.t("No diver “{name}” is entered in this meet.", ["name": TerminalText.inert(name)])
        case .noSuchRound(let diver, let round):
            return localizer.t("{diver} has no dive in round {round}.", ["diver": TerminalText.inert(diver), "round": String(round)])
        case .alreadyEntered(let name): return localizer.t("{name} is already entered; nothing was imported.", ["name": TerminalText.inert(name)])
        case .alreadyAwarded(let diver, let round, let attempt):
            return localizer.t("Attempt {attempt} of {diver}'s round {round} already has its awards; nothing was recorded.",
                               ["diver": TerminalText.inert(diver), "round": String(round), "attempt": String(attempt)])
        case .attemptOutOfOrder(let diver, let round, let attempt):
            return localizer.t("Attempt {attempt} of {diver}'s round {round} comes after attempt {before}, which has no awards.",
                               ["diver": TerminalText.inert(diver), "round": String(round), "attempt": String(attempt), "before": String(attempt - 1)])
        case .wrongNumberOfAwards(let given, let judges):
            return localizer.n("This panel has {count} judge: give {count} award ({given} given).",
                               "This panel has {count} judges: give {count} awards ({given} given).", count: judges, ["given": String(given)])
        case .badAward(let text): return localizer.t("“{value}” is not an award: write 0 to 10 in half points, or - for a missing one.",
                                                     ["value": TerminalText.inert(text)])
        case .nothingToCorrect(let diver, let round, let attempt):
            return localizer.t("Attempt {attempt} of {diver}'s round {round} has no awards to correct; record them with locker meet award.",
                               ["diver": TerminalText.inert(diver), "round": String(round), "attempt": String(attempt)])
        case .enterAfterDiving: return localizer.t("The event has begun (a dive has its awards): no diver can be entered now.")
        case .drawAfterDiving: return localizer.t("The event has begun (a dive has its awards): the running order can no longer be drawn.")
        case .reasonMissing: return localizer.t("Say why: the protocol shows every correction, change and withdrawal with its reason.")
        case .withdrawn(let diver): return localizer.t("{diver} has withdrawn: no further dive is recorded for them.", ["diver": TerminalText.inert(diver)])
        case .changeAfterDiving(let diver, let round):
            return localizer.t("{diver}'s round {round} has its awards: the dive can no longer be changed.", ["diver": TerminalText.inert(diver), "round": String(round)])
        case .nothingToUndo: return localizer.t("Nothing to undo.")
        case .nothingToRedo: return localizer.t("Nothing to redo.")
        case .notCalled(let diver, let round):
            if diver.isEmpty { return localizer.t("No dive is called on the judges' pads.") }
            return localizer.t("{diver}'s round {round} is not the dive called now: nothing was sent.", ["diver": TerminalText.inert(diver), "round": String(round)])
        case .noSuchSeat(let seat): return localizer.t("There is no seat {seat} on this panel.", ["seat": String(seat)])
        case .alreadyJudged(let seat, let award):
            return localizer.t("Seat {seat} has already sent {award} for this dive; it cannot be changed.",
                               ["seat": String(seat), "award": MeasureText.withDecimalSeparator(PanelScore.formatHalfPoints(award), localizer)])
        case .alreadyAccepted(let diver, let round):
            return localizer.t("{diver}'s round {round} is accepted already: its awards can no longer change but by a correction.", ["diver": TerminalText.inert(diver), "round": String(round)])
        case .unscoreable(let error): return error.message(localizer)
        case .wrongHeight(let code, let height, let event):
            return localizer.t("{code} at {height} m: this event is dived at {event} m.", ["code": code, "height": height, "event": event])
        case .padDisagrees(let seat, let sent):
            return localizer.t("Seat {seat} sent {award} from its pad, and the awards must keep it: a correction after acceptance (c) changes it, with a reason.",
                               ["seat": String(seat), "award": MeasureText.withDecimalSeparator(PanelScore.formatHalfPoints(sent), localizer)])
        case .calledWithAwards(let diver, let round):
            return localizer.t("{diver}'s round {round} has its awards: call it again only for the redo of a void attempt (--redo).",
                               ["diver": TerminalText.inert(diver), "round": String(round)])
        case .seatTwice(let seat): return localizer.t("Seat {seat} is given twice.", ["seat": String(seat)])
        case .silentSeats(let seats):
            return localizer.n("Seat {seats} has sent no award: wait for it, type its flash card, or declare it missing.",
                               "Seats {seats} have sent no award: wait for them, type their flash cards, or declare them missing.",
                               count: seats.count, ["seats": seats.map(String.init).joined(separator: ", ")])
        case .journal(let error): return error.localized(localizer)
        }
    }
}
