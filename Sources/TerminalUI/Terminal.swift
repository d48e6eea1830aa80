import CNcurses
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the terminal could not be opened.
public enum TerminalError: Error, Equatable {
    /// Standard input or output is not a terminal (piped, redirected, or run from a script).
    case notATerminal
    /// ncurses does not know the terminal type named by `TERM`.
    case unknownTerminal(String)
}

/// The real terminal: lifecycle, key input and size. The only type that talks to ncurses
/// besides `TerminalSurface`.
///
/// Opening uses `newterm` (so an unknown `TERM` is an error we can explain instead of an exit
/// inside ncurses), raw mode (Ctrl-C arrives as a key), a 25 ms Escape delay unless the user
/// set `ESCDELAY`, and signal handlers that restore the terminal before the process dies.
public final class Terminal {
    /// The current size in cells; updated when a `.resize` key is read.
    public private(set) var size: Size
    /// Number of colours the terminal supports (0 when it has none).
    public let colorCount: Int
    private var extended = KeyDecoder.Extended()
    private var stopped = false

    /// Whether the process locale uses UTF-8. Call before opening; it sets the locale from the
    /// environment (`setlocale(LC_ALL, "")`), as every curses program must.
    public static func prepareLocale() -> Bool {
        lk_setlocale_utf8() == 1
    }

    /// Opens the terminal named by `TERM` (or `term`) in full-screen mode.
    public init(term: String? = nil) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError.notATerminal
        }
        let name = term ?? String(cString: getenv("TERM") ?? strdup(""))
        let status: Int32 = term.map { lk_start($0) } ?? lk_start(nil)
        guard status == 0 else { throw TerminalError.unknownTerminal(name) }
        lk_install_signal_handlers()
        colorCount = lk_has_colors() == 1 ? Int(lk_colors()) : 0
        size = Size(width: Int(lk_cols()), height: Int(lk_lines()))
        extended = KeyDecoder.Extended(shiftUp: Int(lk_key_for_name("kUP")),
                                       shiftDown: Int(lk_key_for_name("kDN")))
    }

    deinit {
        stop()
        if wakeDescriptors.read >= 0 { close(wakeDescriptors.read); close(wakeDescriptors.write) }
    }

    /// Restores the terminal (leaves the alternate screen, echo back on). Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        lk_stop()
    }

    /// The self-pipe that background work writes to so a waiting `readKey` returns at once.
    private var wakeDescriptors: (read: Int32, write: Int32) = (-1, -1)

    /// A closure any thread may call to make a waiting `readKey` return nil at once (the run
    /// loop then delivers background results). One pipe per terminal; writing never blocks.
    public func makeWaker() -> @Sendable () -> Void {
        if wakeDescriptors.read < 0 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return {} }
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            wakeDescriptors = (fds[0], fds[1])
        }
        let fd = wakeDescriptors.write
        return {
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
    }

    /// Waits for a key or a wake-up. `timeout` in milliseconds (nil waits forever); nil means
    /// no key came (the time ran out, or background work woke the loop).
    public func readKey(timeout: Int? = nil) -> Key? {
        guard wakeDescriptors.read >= 0 else {
            lk_set_timeout(Int32(timeout ?? -1))
            return readPendingKey()
        }
        // A key ncurses already holds (the rest of a sequence) comes first.
        lk_set_timeout(0)
        if let key = readPendingKey() { return key }
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeDescriptors.read, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, Int32(timeout ?? -1))
        if ready == 0 { return nil }
        if ready > 0 && fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakeDescriptors.read, &drain, drain.count) > 0 {}
            return nil
        }
        // Input is ready, or a signal (a resize) interrupted the wait: ncurses reads it now.
        return readPendingKey()
    }

    /// One key from ncurses with the timeout already set; nil when none is there.
    private func readPendingKey() -> Key? {
        var value: Int32 = 0
        let status = lk_read(&value)
        if status == ERR { return nil }
        let key: Key
        if status == lk_key_code_yes() {
            key = KeyDecoder.decode(keyCode: Int(value), extended: extended)
        } else {
            key = KeyDecoder.decode(character: UInt32(bitPattern: value))
        }
        if key == .resize {
            size = Size(width: Int(lk_cols()), height: Int(lk_lines()))
        }
        if key == .escape { return escapeOrUnknownSequence() }
        return key
    }

    /// How long the rest of a control sequence may take to arrive after its `ESC [` or `ESC O`,
    /// byte by byte: vim's `ttimeoutlen` in its defaults (100 ms).
    static let sequenceWait: Int32 = 100

    /// After an Escape: the rest of a control sequence ncurses did not recognise (ESC [ … or
    /// ESC O …, arrived with it) is read and dropped as one `.unknown` key, so its bytes never act
    /// as keys of their own. A sequence that never completes (Escape then "[" typed fast, or
    /// arriving in one packet) is the keys it was made of: its bytes are given back and the
    /// Escape stands alone, as is anything else that follows it.
    private func escapeOrUnknownSequence() -> Key {
        lk_set_timeout(0)
        var value: Int32 = 0
        let status = lk_read(&value)
        guard status != ERR else { return .escape }
        let isKeyCode = status == lk_key_code_yes()
        guard !isKeyCode, value == 0x5B || value == 0x4F else {
            _ = lk_unread(value, isKeyCode ? 1 : 0)
            return .escape
        }
        var read: [Int32] = [value]
        let isSS3 = value == 0x4F
        lk_set_timeout(Self.sequenceWait)
        // SS3: one final character. CSI: parameters and intermediates (0x20–0x3F), then a final
        // byte (0x40–0x7E).
        for _ in 0..<32 {
            let status = lk_read(&value)
            guard status != ERR else { break }
            guard status != lk_key_code_yes() else {
                _ = lk_unread(value, 1)
                break
            }
            read.append(value)
            if isSS3 || (0x40...0x7E).contains(value) { return .unknown(0) }
            guard (0x20...0x3F).contains(value) else { break }
        }
        for byte in read.reversed() { _ = lk_unread(byte, 0) }
        return .escape
    }

    /// A surface that draws on this terminal.
    public func makeSurface(theme: Theme, glyphs: Glyphs) -> TerminalSurface {
        TerminalSurface(terminal: self, theme: theme, glyphs: glyphs)
    }
}

/// A surface backed by the terminal: screens render a whole frame into it, then `present()`
/// compares the frame with the previous one and sends only the changed cells to ncurses, which
/// computes the minimal terminal update. No `clear()` per frame.
public final class TerminalSurface: Surface {
    public var grid: CellGrid
    public var cursor: CursorRequest?
    public var bellRequested = false
    public var hyperlinks: [Hyperlink] = []
    /// The links the terminal has now; re-sent only when they change or the screen is redrawn.
    private var shownHyperlinks: [Hyperlink] = []
    public var clipboard: String?
    public private(set) var glyphs: Glyphs
    public private(set) var theme: Theme
    private let terminal: Terminal
    private var front: CellGrid?
    /// The previous `front`, kept so the next frame reuses its storage instead of copying.
    private var spare: CellGrid?
    /// The scalars of the run being sent (one style, one scalar per cell).
    private var run: [UInt32] = []
    private var pairs: [Theme.Look: Int32] = [:]
    private var nextPair: Int32 = 1

    init(terminal: Terminal, theme: Theme, glyphs: Glyphs) {
        self.terminal = terminal
        self.theme = theme
        self.glyphs = glyphs
        grid = CellGrid(width: terminal.size.width, height: terminal.size.height)
    }

    /// Starts a new frame: matches the terminal's size and blanks the grid.
    public func beginFrame() {
        let size = terminal.size
        if size.width != grid.width || size.height != grid.height {
            grid.resize(width: size.width, height: size.height)
            front = nil
            spare = nil
            lk_erase()
        } else if var reused = spare {
            // The grid two frames old: blanking it in place copies nothing.
            spare = nil
            reused.clear()
            grid = reused
        } else {
            grid.clear()
        }
        cursor = nil
    }

    /// Changes colours or glyphs; the next `present()` repaints everything.
    public func configure(theme: Theme, glyphs: Glyphs) {
        self.theme = theme
        self.glyphs = glyphs
        lastStyle = nil
        pairs = [:]
        nextPair = 1
        front = nil
    }

    /// Forces a full repaint on the next `present()` (Ctrl-L).
    public func invalidate() {
        front = nil
        shownHyperlinks = []
        lk_invalidate()
    }

    /// Sends the changed cells to the terminal, in runs of one style, and places the cursor.
    public func present() {
        let width = grid.width
        for y in 0..<grid.height {
            let row = y * width
            var first = 0
            var last = width - 1
            if let front {
                guard let changed = grid.changedColumns(inRow: y, comparedWith: front) else { continue }
                first = changed.lowerBound
                last = changed.upperBound
            }
            // Start on the left half of a wide grapheme, never on its continuation.
            while first > 0 && grid.packed(row + first).code == 0 { first -= 1 }
            // A blank tail (plain spaces to the edge) is cleared in one call instead of being
            // drawn cell by cell: ncurses then sends it as an erase, and a mostly blank frame
            // (a tab switch to a short page) costs little.
            var blankFrom = width
            while blankFrom > first && grid.packed(row + blankFrom - 1) == CellGrid.space { blankFrom -= 1 }
            if blankFrom <= last {
                lk_clear_to_eol(Int32(y), Int32(blankFrom))
                last = blankFrom - 1
                if last < first { continue }
            }
            var runStart = first
            var runStyle: UInt16 = 0
            run.removeAll(keepingCapacity: true)
            for x in first...last {
                let cell = grid.packed(row + x)
                if cell.code == 0 { continue }  // the second column of a wide scalar already sent
                let isCluster = cell.code & CellGrid.clusterFlag != 0
                if !run.isEmpty && (cell.styleCode != runStyle || isCluster) { sendRun(y: y, x: runStart) }
                if isCluster {
                    put(row + x, x: x, y: y)
                    continue
                }
                if run.isEmpty {
                    runStart = x
                    runStyle = cell.styleCode
                }
                run.append(cell.code)
            }
            sendRun(y: y, x: runStart)
        }
        if let cursor, cursor.position.x < width, cursor.position.y < grid.height {
            lk_cursor(Int32(cursor.position.y), Int32(cursor.position.x), cursor.visible ? 1 : 0)
        } else {
            lk_cursor(Int32(max(0, grid.height - 1)), 0, 0)
        }
        lk_flush()
        if bellRequested { lk_bell(); bellRequested = false }
        // Links whose text is still on screen: a form or a question drawn over one hides it.
        let visibleLinks = hyperlinks.filter(showsText)
        if visibleLinks != shownHyperlinks {
            // Over the cells ncurses has just drawn, the same text again inside OSC 8, with the
            // cursor saved and restored so ncurses' idea of the screen stays true. Links whose
            // text holds anything but printable ASCII are skipped.
            var out = ""
            for link in visibleLinks where link.url.allSatisfy({ $0.isASCII && $0 > " " && $0 != "\u{7F}" }) {
                out += "\u{1B}7\u{1B}[\(link.y + 1);\(link.x + 1)H\u{1B}]8;;\(link.url)\u{1B}\\\(link.text)\u{1B}]8;;\u{1B}\\\u{1B}8"
            }
            if !out.isEmpty { lk_write_raw(out, Int32(out.utf8.count)) }
            shownHyperlinks = visibleLinks
        }
        hyperlinks = []
        if let text = clipboard {
            let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
            lk_write_raw(sequence, Int32(sequence.utf8.count))
            clipboard = nil
        }
        spare = front
        front = grid
    }

    /// Whether the cells at a link's place hold its text, which must be printable ASCII: the link
    /// is sent again over them, and must never cover what was drawn above it since.
    private func showsText(_ link: Hyperlink) -> Bool {
        guard link.x >= 0, link.y >= 0, link.y < grid.height, link.x + link.text.utf8.count <= grid.width else { return false }
        var index = link.y * grid.width + link.x
        for byte in link.text.utf8 {
            guard byte >= 0x20, byte < 0x7F, grid.packed(index).code == UInt32(byte) else { return false }
            index += 1
        }
        return true
    }

    /// Sends `run` (cells of one style from column `x`) and empties it.
    private func sendRun(y: Int, x: Int) {
        guard !run.isEmpty else { return }
        setStyle(grid.packed(y * grid.width + x).style)
        run.withUnsafeBufferPointer { codes in
            _ = lk_put_run(Int32(y), Int32(x), codes.baseAddress, Int32(codes.count), lastAttributes, lastPair)
        }
        run.removeAll(keepingCapacity: true)
    }

    private var lastStyle: Style?
    private var lastAttributes: UInt32 = 0
    private var lastPair: Int32 = 0

    /// Makes `style` the one the next cells are drawn in.
    private func setStyle(_ style: Style) {
        if style != lastStyle {
            let look = theme.look(for: style, colorCount: terminal.colorCount)
            lastPair = look.usesColor ? pairNumber(for: look) : 0
            var attributes: UInt32 = 0
            if look.attributes.contains(.bold) { attributes |= Attr.bold }
            if look.attributes.contains(.dim) { attributes |= Attr.dim }
            if look.attributes.contains(.reverse) { attributes |= Attr.reverse }
            if look.attributes.contains(.underline) { attributes |= Attr.underline }
            if look.attributes.contains(.italic) { attributes |= Attr.italic }
            lastAttributes = attributes
            lastStyle = style
        }
    }

    /// Sends one cell that holds a grapheme of several scalars (over two columns when the next
    /// cell is its right half).
    private func put(_ index: Int, x: Int, y: Int) {
        setStyle(grid.packed(index).style)
        let code = grid.packed(index).code
        let columns = x + 1 < grid.width && grid.packed(index + 1).code == 0 ? 2 : 1
        if code & CellGrid.clusterFlag == 0 {
            var scalar = wchar_t(bitPattern: code == 0 ? 0x20 : code)
            _ = lk_put_cell(Int32(y), Int32(x), &scalar, 1, Int32(columns), lastAttributes, lastPair)
            return
        }
        grid.withScalars(of: index) { scalars in
            var buffer: (wchar_t, wchar_t, wchar_t, wchar_t, wchar_t, wchar_t) = (0, 0, 0, 0, 0, 0)
            var count: Int32 = 0
            withUnsafeMutableBytes(of: &buffer) { raw in
                let slots = raw.bindMemory(to: wchar_t.self)
                // One more than ncurses keeps in a cell (CCHARW_MAX): the shim draws a longer
                // grapheme as a stand-in, which needs only its first scalars.
                for scalar in scalars where count < 6 {
                    slots[Int(count)] = wchar_t(bitPattern: scalar.value)
                    count += 1
                }
                _ = lk_put_cell(Int32(y), Int32(x), slots.baseAddress, count, Int32(columns), lastAttributes, lastPair)
            }
        }
    }

    private func pairNumber(for look: Theme.Look) -> Int32 {
        let key = Theme.Look(look.foreground, look.background)
        if let pair = pairs[key] { return pair }
        guard nextPair < lk_color_pairs() else { return 0 }
        let pair = nextPair
        nextPair += 1
        _ = lk_init_pair(pair, Int32(look.foreground), Int32(look.background))
        pairs[key] = pair
        return pair
    }

    private enum Attr {
        static let bold = lk_attr_bold()
        static let dim = lk_attr_dim()
        static let reverse = lk_attr_reverse()
        static let underline = lk_attr_underline()
        static let italic = lk_attr_italic()
    }
}
