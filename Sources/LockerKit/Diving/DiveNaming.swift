/// Dive names and calculator messages in the interface language, composed from the parts of a
/// dive number rather than stored per dive.
extension DiveCode {
    /// The dive's name, e.g. "Back 2½ somersaults, 1½ twists, pike".
    public func name(_ l: Localizer) -> String {
        var direction: String
        switch (group, self.direction) {
        case (6, nil): direction = l.t("Armstand")
        case (6, 0?): direction = l.t("Armstand forward")
        case (6, 1?): direction = l.t("Armstand back")
        case (6, _): direction = l.t("Armstand reverse")
        case (_, 0?): direction = l.t("Forward")
        case (_, 1?): direction = l.t("Back")
        case (_, 2?): direction = l.t("Reverse")
        default: direction = l.t("Inward")
        }
        if flying { direction = l.t("{direction} flying", ["direction": direction]) }
        var parts: [String]
        switch halfSomersaults {
        case 0, 1:
            // "Inward dive", and "Plongeon retourné", "Salto inverso", "Tuffo rovesciato": the
            // language puts the direction before or after, lower-cased, and the name begins
            // with a capital.
            let named = l.t("{direction} dive", context: "dive name", ["direction": direction.lowercased()])
            parts = [named.prefix(1).uppercased() + named.dropFirst()]
        case 2: parts = [direction + " " + l.t("1 somersault")]
        default: parts = [direction + " " + l.t("{count} somersaults", ["count": Self.halves(halfSomersaults)])]
        }
        switch halfTwists {
        case 0: break
        case 1: parts.append(l.t("½ twist"))
        case 2: parts.append(l.t("1 twist"))
        default: parts.append(l.t("{count} twists", ["count": Self.halves(halfTwists)]))
        }
        parts.append(position.name(l))
        return parts.joined(separator: ", ")
    }

    /// A count of halves as the rules write it: 1 → "½", 5 → "2½", 4 → "2".
    static func halves(_ count: Int) -> String {
        let whole = count / 2
        guard count % 2 == 1 else { return "\(whole)" }
        return whole == 0 ? "½" : "\(whole)½"
    }
}

extension DivePosition {
    /// "straight", "pike", "tuck" or "free" in the interface language.
    public func name(_ l: Localizer) -> String {
        switch self {
        case .straight: return l.t("straight", context: "dive position")
        case .pike: return l.t("pike", context: "dive position")
        case .tuck: return l.t("tuck", context: "dive position")
        case .free: return l.t("free", context: "dive position")
        }
    }
}

extension DiveHeight {
    /// "3 m", "7.5 m" (with the language's decimal comma where it has one).
    public func label(_ l: Localizer) -> String {
        l.t("{height} m", ["height": MeasureText.withDecimalSeparator(rawValue, l)])
    }

    /// Parses "3", "3m", "3 m", "7.5" or "7,5".
    public init?(parsing text: String) {
        var cleaned = text.lowercased().filter { !$0.isWhitespace }.replacing(",", with: ".")
        if cleaned.hasSuffix("m") { cleaned.removeLast() }
        if cleaned.hasSuffix(".0") { cleaned.removeLast(2) }
        self.init(rawValue: cleaned)
    }
}

extension DiveCodeError {
    /// Why `code` is not a dive (or not one at `height`), in the interface language.
    public func message(_ l: Localizer, code: String, height: DiveHeight) -> String {
        let args = ["code": code, "height": height.label(l)]
        switch self {
        case .malformed:
            return l.t("“{code}” is not a dive number: write 3 or 4 digits and a position letter A, B, C or D, like 105B or 5253B.", args)
        case .unknownGroup:
            return l.t("“{code}” is not a dive number: the first digit is the group, 1 to 6 (forward, back, reverse, inward, twisting, armstand).", args)
        case .badDigit:
            return l.t("“{code}” is not a dive number: its digits do not fit the numbering of its group (art. 1.5).", args)
        case .positionNotAllowed:
            return l.t("{code}: this position is not allowed with this number of somersaults and twists (art. 1.6.4).", args)
        case .tooManySomersaults:
            return l.t("{code}: the rules give no degree of difficulty for this many somersaults at {height}.", args)
        case .positionNotTabled:
            return l.t("{code}: this position is not tabled for this dive at {height}.", args)
        case .armstandOnSpringboard:
            return l.t("{code}: armstand dives are done from the platform only (5, 7.5 or 10 m), not at {height}.", args)
        case .twistsNotTabled:
            return l.t("{code}: the rules give no degree of difficulty for this many twists with this many somersaults.", args)
        }
    }
}

extension PanelScoreError {
    /// What is wrong with the awards or DD, in the interface language.
    public func message(_ l: Localizer) -> String {
        switch self {
        case .wrongCount(let count, let synchro):
            return synchro
                ? l.n("Synchronised panels have 9 or 11 judges; {count} award was given.",
                      "Synchronised panels have 9 or 11 judges; {count} awards were given.", count: count)
                : l.n("Individual panels have 5 or 7 judges; {count} award was given.",
                      "Individual panels have 5 or 7 judges; {count} awards were given.", count: count)
        case .badAward(let text):
            return l.t("“{award}” is not an award: awards go from 0 to 10 in half points.", ["award": text])
        case .badDifficulty(let text):
            return l.t("“{dd}” is not a degree of difficulty: give a positive number with one decimal, like 2.8.", ["dd": text])
        case .tooManyMissing(let role):
            return l.t("Too many awards are missing among the {judges} for Locker to fill them in: art. 7.9–7.10 only say how to replace the award of one judge who gave none.",
                       ["judges": role.name(l)])
        }
    }
}

extension JudgeRole {
    /// The judges of this role, e.g. "execution judges of diver A".
    public func name(_ l: Localizer) -> String {
        switch self {
        case .execution: return l.t("execution judges")
        case .executionA: return l.t("execution judges of diver A")
        case .executionB: return l.t("execution judges of diver B")
        case .synchronisation: return l.t("synchronisation judges")
        }
    }
}

extension DegreeOfDifficulty {
    /// Tenths as a DD is written: 28 → "2.8" ("2,8" in fr, es and it with `l`).
    public static func format(tenths value: Int, _ l: Localizer? = nil) -> String {
        let text = "\(value / 10).\(value % 10)"
        return l.map { MeasureText.withDecimalSeparator(text, $0) } ?? text
    }
}

extension PanelScore {
    /// The awards in runs of one judge role, in judge order.
    public var groupedAwards: [(role: JudgeRole, awards: [ScoredAward])] {
        var groups: [(role: JudgeRole, awards: [ScoredAward])] = []
        for award in awards {
            if groups.last?.role == award.role { groups[groups.count - 1].awards.append(award) }
            else { groups.append((award.role, [award])) }
        }
        return groups
    }

    /// The awards of each judge group as text: cancelled ones in brackets, replaced ones marked
    /// with an asterisk, e.g. "(8)  7.5  7.5  7.5  (7)".
    public func groupLines(_ l: Localizer) -> [(label: String, awards: String)] {
        groupedAwards.map { group in
            (group.role.label(l), group.awards.map { $0.cancelled ? "(" + $0.text(l) + ")" : $0.text(l) }.joined(separator: "  "))
        }
    }

    /// The sum that gives the score, e.g. "22.5 × 2.0 = 45.00" or "35.5 ÷ 5 × 3 × 2.8 = 59.64".
    public func formula(_ l: Localizer) -> String {
        let total = MeasureText.withDecimalSeparator(NumberText.compact(Double(keptHalfPoints) / 2), l)
        let dd = DegreeOfDifficulty.format(tenths: difficultyTenths, l)
        let score = MeasureText.withDecimalSeparator(PanelScore.formatHundredths(hundredths), l)
        return panel.isSynchro ? "\(total) ÷ 5 × 3 × \(dd) = \(score)" : "\(total) × \(dd) = \(score)"
    }

    /// The whole result as plain text lines (command line, screen readers).
    public func describe(_ l: Localizer) -> [String] {
        var lines = [l.t("{judges} judges · DD {dd}", ["judges": String(panel.rawValue), "dd": DegreeOfDifficulty.format(tenths: difficultyTenths, l)])]
        let rows = groupLines(l)
        let width = rows.map { $0.label.count }.max() ?? 0
        for row in rows {
            lines.append("  " + row.label + String(repeating: " ", count: max(0, width - row.label.count)) + "  " + row.awards)
        }
        lines.append(l.t("Score: {formula}", ["formula": formula(l)]))
        lines.append(notes(l))
        return lines
    }

    /// The legend under the awards: "(…) cancelled", and what * means when an award was replaced.
    public func notes(_ l: Localizer) -> String {
        var notes = [l.t("(…) cancelled")]
        if awards.contains(where: \.replaced) { notes.append(l.t("* missing award replaced by the rounded average (art. 7.9–7.10)")) }
        return notes.joined(separator: " · ")
    }
}

extension ScoredAward {
    /// "7.5" ("7,5" in fr, es and it), or "7.5*" when the award was replaced.
    public func text(_ l: Localizer) -> String { MeasureText.withDecimalSeparator(NumberText.compact(value), l) + (replaced ? "*" : "") }
}

extension JudgeRole {
    /// A short label for a row of awards: "Execution", "Diver A", "Diver B", "Synchronisation".
    public func label(_ l: Localizer) -> String {
        switch self {
        case .execution: return l.t("Execution")
        case .executionA: return l.t("Diver A")
        case .executionB: return l.t("Diver B")
        case .synchronisation: return l.t("Synchronisation")
        }
    }
}
