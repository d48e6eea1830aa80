/// The dive calculator of the Rules tab: a dive number and height give the degree of difficulty
/// and its components; the judges' awards then give the kept and cancelled awards and the score.
/// Every change of an input recomputes both results and notifies observers.
public final class DiveCalculatorViewModel: ViewModel {
    public let localizer: Localizer
    public private(set) var code = ""
    public private(set) var height = DiveHeight.m3
    public private(set) var synchro = false
    public private(set) var awardsText = ""

    /// The parsed dive and its DD, or why there is none; nil while no code is typed.
    public private(set) var dive: Result<DiveResult, DiveCodeError>?
    /// The panel's score, or why there is none; nil while no awards are typed or the DD is unknown.
    public private(set) var score: Result<PanelScore, PanelScoreError>?

    /// A valid dive at a height.
    public struct DiveResult: Equatable, Sendable {
        public var code: DiveCode
        public var components: DDComponents
    }

    public init(localizer: Localizer) {
        self.localizer = localizer
        super.init()
    }

    public func setCode(_ text: String) { code = text; recompute() }
    public func setHeight(_ value: DiveHeight) { height = value; recompute() }
    public func setSynchro(_ value: Bool) { synchro = value; recompute() }
    public func setAwards(_ text: String) { awardsText = text; recompute() }

    /// Moves to the next (or previous) board height.
    public func stepHeight(by delta: Int) {
        let all = DiveHeight.allCases
        let index = all.firstIndex(of: height) ?? 0
        setHeight(all[(index + delta + all.count) % all.count])
    }

    /// Why the current dive has no DD, in the interface language.
    public var diveProblem: String? {
        guard case .failure(let error)? = dive else { return nil }
        return error.message(localizer, code: code.uppercased(), height: height)
    }

    /// Why the awards cannot be scored, in the interface language.
    public var scoreProblem: String? {
        guard case .failure(let error)? = score else { return nil }
        return error.message(localizer)
    }

    private func recompute() {
        let trimmed = code.filter { !$0.isWhitespace }
        if trimmed.isEmpty {
            dive = nil
        } else {
            do {
                let parsed = try DiveCode(parsing: trimmed)
                dive = .success(DiveResult(code: parsed, components: try DegreeOfDifficulty.compute(parsed, height: height)))
            } catch let error as DiveCodeError {
                dive = .failure(error)
            } catch {
                dive = .failure(.malformed)
            }
        }
        if awardsText.allSatisfy(\.isWhitespace) {
            score = nil
        } else if case .success(let result)? = dive {
            do {
                let awards = try PanelScore.parseAwards(awardsText)
                score = .success(try PanelScore.compute(difficultyTenths: result.components.tenths, awards: awards, synchro: synchro))
            } catch let error as PanelScoreError {
                score = .failure(error)
            } catch {
                score = nil
            }
        } else {
            score = nil
        }
        notifyChanged()
    }
}
