import FoundationEssentials

/// The Penalties tab: the 48 penalties, filtered by sanction and by owner, one selected.
///
/// Observers are told after every change (filters, selection, language).
public final class PenaltiesViewModel: ViewModel {
    public let localizer: Localizer
    public let book: PenaltyBook?
    /// Why the penalty table could not be loaded (the tab then says so instead of a list).
    public let loadError: DataFileError?
    public private(set) var sanctionFilter: Sanction?
    public private(set) var ownerFilter: PenaltyOwner = .any
    /// The penalties that pass the filters, in display order.
    public private(set) var visible: [Penalty] = []
    /// Index into `visible`.
    public private(set) var selectedIndex = 0

    public convenience init(localizer: Localizer, loading url: URL) {
        self.init(localizer: localizer, loaded: PenaltyBook.loaded(from: url))
    }

    /// A table already read (`DivingFiles`), or why it could not be.
    public init(localizer: Localizer, loaded: Result<PenaltyBook, DataFileError>) {
        self.localizer = localizer
        switch loaded {
        case .success(let table):
            book = table
            loadError = nil
        case .failure(let error):
            book = nil
            loadError = error
        }
        super.init()
        applyFilters(keeping: nil)
    }

    public convenience init(localizer: Localizer, book: PenaltyBook) {
        self.init(localizer: localizer, loaded: .success(book))
    }

    public var language: Language { localizer.language }
    public var total: Int { book?.penalties.count ?? 0 }
    public var selected: Penalty? { visible.indices.contains(selectedIndex) ? visible[selectedIndex] : nil }

    /// The description of a penalty in the interface language.
    public func description(of penalty: Penalty) -> String { penalty.description.text(language) }

    public func label(of sanction: Sanction) -> String { book?.info(sanction).label.text(language) ?? sanction.rawValue }

    public func explanation(of sanction: Sanction) -> String { book?.info(sanction).explanation.text(language) ?? "" }

    public func glyph(of sanction: Sanction, ascii: Bool) -> String {
        guard let info = book?.info(sanction) else { return "?" }
        return ascii ? info.ascii : info.glyph
    }

    // MARK: Intents

    public func select(_ index: Int) {
        let clamped = visible.isEmpty ? 0 : min(max(0, index), visible.count - 1)
        guard clamped != selectedIndex else { return }
        selectedIndex = clamped
        notifyChanged()
    }

    /// all → each of the six sanctions → all.
    public func cycleSanctionFilter() {
        let all = Sanction.allCases
        if let current = sanctionFilter, let i = all.firstIndex(of: current) {
            sanctionFilter = i + 1 < all.count ? all[i + 1] : nil
        } else {
            sanctionFilter = all[0]
        }
        applyFilters(keeping: selected?.id)
        notifyChanged()
    }

    /// any → referee → judge → any.
    public func cycleOwnerFilter() {
        let all = PenaltyOwner.allCases
        ownerFilter = all[(all.firstIndex(of: ownerFilter)! + 1) % all.count]
        applyFilters(keeping: selected?.id)
        notifyChanged()
    }

    public func setFilters(sanction: Sanction?, owner: PenaltyOwner) {
        sanctionFilter = sanction
        ownerFilter = owner
        applyFilters(keeping: selected?.id)
        notifyChanged()
    }

    public var hasFilters: Bool { sanctionFilter != nil || ownerFilter != .any }

    public func clearFilters() {
        guard hasFilters else { return }
        setFilters(sanction: nil, owner: .any)
    }

    private func applyFilters(keeping id: String?) {
        visible = (book?.penalties ?? []).filter { penalty in
            (sanctionFilter == nil || penalty.sanction == sanctionFilter) && ownerFilter.matches(penalty)
        }
        selectedIndex = id.flatMap { id in visible.firstIndex { $0.id == id } } ?? 0
    }
}
