import LockerKit
import TerminalUI

extension KeyTable {
    /// The keys while a question is asked (`ConfirmDialog`, drawn on the status line's rows): the
    /// question takes every key. `y` (or its button's first letter) says yes, `n` or Esc no, ← →
    /// light the other button and Enter presses the lit one. `dialog` reads the open question,
    /// `store` keeps it after a key that does not answer, `answer` runs once it is answered (the
    /// screen closes the question there).
    static func question(id: String, title: String, _ l: Localizer, yesHelp: String, yesFooter: String, noHelp: String, noFooter: String,
                         dialog: @escaping () -> ConfirmDialog?, store: @escaping (ConfirmDialog) -> Void,
                         answer: @escaping (ConfirmDialog.Answer) -> Void) -> KeyTable {
        KeyTable(id: id, title: title, [
            .described(ConfirmDialog.yesKeys, help: yesHelp, footer: yesFooter, footerKeys: "y"),
            .described(ConfirmDialog.noKeys, help: noHelp, footer: noFooter, footerKeys: "n Esc"),
            .described(ConfirmDialog.chooseKeys + ConfirmDialog.pressKeys, help: l.t("Switch between the buttons; Enter presses the lit one"),
                       footer: l.t("choose"), footerKeys: "←→"),
            // The question answers every key (the lines above only name them); q too, so a q
            // meant for the question never quits the app from under it.
            KeyBinding(matching: { _ in true }, names: [.character("q")], label: "", help: "") { key in
                guard var open = dialog() else { return false }
                if let answered = open.handle(key) { answer(answered) } else { store(open) }
                return true
            },
        ])
    }
}
