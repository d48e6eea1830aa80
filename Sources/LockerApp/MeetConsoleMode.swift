import LockerKit
import TerminalUI

/// One dive's awards on their way from the recorder's keys to the journal: the award as it will
/// be recorded (for whom, which attempt, the awards read and the referee's call), whether it
/// corrects one, and the awards as typed.
struct AwardDraft: Equatable {
    /// The awards are empty until the typed text is read (half points; nil for a missing one).
    var award: MeetAward
    /// A correction of an attempt already recorded (it then asks why).
    var correcting: Bool
    /// The awards as typed, kept to edit them again.
    var text: String

    init(diver: String, round: Int, attempt: Int, correcting: Bool, text: String, awards: [Int?] = [], call: RefereeCall = .none) {
        award = MeetAward(diver: diver, round: round, attempt: attempt, awards: awards, call: call)
        self.correcting = correcting
        self.text = text
    }
}

/// What a typed reason is for.
enum ReasonPurpose: Equatable {
    case correction(AwardDraft)
    case withdrawal(diver: String)
    case change(diver: String, dive: PlannedDive)
}

/// What the meet console is doing; its keys, footer and panel derive from it. Every change of
/// mode is an assignment, and what a decision's outcome does to it is `next(_:after:)`.
indirect enum MeetConsoleMode: Equatable {
    /// Looking at the called dive and the ranking.
    case browsing
    /// Typing the called dive's awards.
    case typingAwards(AwardDraft, field: TextFieldState)
    /// The awards read back before they count; the referee's call is set here.
    case readingBack(AwardDraft)
    /// Choosing the article of a failed dive from the penalties.
    case choosingFailure(AwardDraft, selected: Int)
    /// Typing why (a correction, a withdrawal, a late change).
    case typingReason(ReasonPurpose, field: TextFieldState)
    /// Typing a late change's dive ("5253B 3").
    case typingDive(diver: String, round: Int, field: TextFieldState)
    /// A decision sent to the journal; `back` is where a refusal returns, with nothing lost.
    case writing(back: MeetConsoleMode)

    /// The mode after a decision's outcome: a recorded one ends the decision, a refused one
    /// returns to where it was sent from with everything typed. An outcome while no decision is
    /// being written (a redo, another process) leaves the mode alone.
    static func next(_ mode: MeetConsoleMode, after outcome: MeetConsoleViewModel.Outcome) -> MeetConsoleMode {
        guard case .writing(let back) = mode else { return mode }
        switch outcome {
        case .recorded: return .browsing
        case .refused: return back
        }
    }

    /// True while a field takes every key.
    var capturesText: Bool {
        switch self {
        case .typingAwards, .typingReason, .typingDive: return true
        default: return false
        }
    }
}
