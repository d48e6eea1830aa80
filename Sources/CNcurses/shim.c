#define _GNU_SOURCE 1 /* strcasestr */
#include "CNcurses.h"

#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <term.h>
#include <unistd.h>

static SCREEN *lk_screen = NULL;
static volatile sig_atomic_t lk_is_active = 0;
static int lk_cursor_shown = -1;

static int lk_codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL) return 0;
    return (strcasecmp(codeset, "UTF-8") == 0 || strcasecmp(codeset, "utf8") == 0) ? 1 : 0;
}

/* Whether the environment asks for a UTF-8 locale (LC_ALL, else LC_CTYPE, else LANG). */
static int lk_environment_wants_utf8(void) {
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *value = getenv(names[i]);
        if (value == NULL || *value == '\0') continue;
        return (strcasestr(value, "utf-8") != NULL || strcasestr(value, "utf8") != NULL) ? 1 : 0;
    }
    return 0;
}

int lk_setlocale_utf8(void) {
    setlocale(LC_ALL, "");
    if (lk_codeset_is_utf8()) return 1;
    /* A UTF-8 locale that is asked for but not installed (common over SSH: LANG=fr_FR.UTF-8
     * forwarded to a server that never generated it) would make every non-ASCII character
     * vanish. The terminal still speaks UTF-8, so take the character handling from C.UTF-8. */
    if (lk_environment_wants_utf8()) {
        const char *fallbacks[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8"};
        for (size_t i = 0; i < sizeof fallbacks / sizeof fallbacks[0]; i++) {
            if (setlocale(LC_CTYPE, fallbacks[i]) != NULL && lk_codeset_is_utf8()) return 1;
        }
    }
    return 0;
}

/* Most terminfo entries make sgr0 and sgr leave the alternate (line-drawing) character set at
 * every change of attributes, in case it was left on: xterm's send ESC ( B, screen's and tmux's
 * SI. In a UTF-8 locale nothing Locker draws uses that set (lines are Unicode characters), so
 * the character set is selected once at start and the two capabilities lose that part, in this
 * process's copy of the terminfo entry (tigetstr points into it; the macros of term.h point to
 * a second copy that ncurses does not use). A full 200×60 screen on xterm then carries about
 * 200 fewer escape sequences for the terminal to parse. Done before any output, so ncurses has
 * not parsed either capability yet. */
static void lk_cut(const char *name, const char *part) {
    char *capability = tigetstr(name);
    if (capability == NULL || capability == (char *)-1 || *part == '\0') return;
    char *at = strstr(capability, part);
    if (at == NULL) return;
    const char *rest = at + strlen(part);
    memmove(at, rest, strlen(rest) + 1);
}

static void lk_select_ascii_once(void) {
    const char *leave = tigetstr("rmacs"), *enter = tigetstr("smacs");
    if (!lk_codeset_is_utf8() || leave == NULL || leave == (char *)-1 || enter == NULL || enter == (char *)-1) return;
    char clause[64];
    if (snprintf(clause, sizeof clause, "%%?%%p9%%t%s%%e%s%%;", enter, leave) >= (int)sizeof clause) return;
    putp(leave);
    lk_cut("sgr", clause);
    lk_cut("sgr0", leave);
}

/* Sequences terminals send for editing and cursor keys that a terminfo entry may not list:
 * tmux sends ESC [ 1 ~ and ESC [ 4 ~ for Home and End, which xterm's entry has as ESC O H and
 * ESC O F. Unlisted, ncurses hands over their bytes one by one (Escape, "[", "1", "~"), and an
 * open form would close and a tab change. Each is taught to ncurses unless the entry already
 * binds it (or binds a longer sequence it starts). */
static void lk_define_missing_keys(void) {
    static const struct { const char *sequence; int code; } keys[] = {
        {"\033[1~", KEY_HOME}, {"\033[7~", KEY_HOME}, {"\033[H", KEY_HOME}, {"\033OH", KEY_HOME},
        {"\033[4~", KEY_END}, {"\033[8~", KEY_END}, {"\033[F", KEY_END}, {"\033OF", KEY_END},
        {"\033[2~", KEY_IC}, {"\033[3~", KEY_DC}, {"\033[5~", KEY_PPAGE}, {"\033[6~", KEY_NPAGE},
        {"\033[A", KEY_UP}, {"\033[B", KEY_DOWN}, {"\033[C", KEY_RIGHT}, {"\033[D", KEY_LEFT},
        {"\033OA", KEY_UP}, {"\033OB", KEY_DOWN}, {"\033OC", KEY_RIGHT}, {"\033OD", KEY_LEFT},
        {"\033[Z", KEY_BTAB},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (key_defined(keys[i].sequence) == 0) define_key(keys[i].sequence, keys[i].code);
    }
}

int lk_start(const char *term) {
    if (lk_screen != NULL) return 0;
    /* newterm returns NULL on an unknown terminal instead of exiting like initscr. */
    lk_screen = newterm(term, stdout, stdin);
    if (lk_screen == NULL) return -1;
    set_term(lk_screen);
    lk_is_active = 1;
    /* Escape alone waits 25 ms for a following sequence, unless the user chose a delay. */
    const char *escdelay = getenv("ESCDELAY");
    if (escdelay == NULL || *escdelay == '\0') set_escdelay(25);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    lk_define_missing_keys();
    meta(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    leaveok(stdscr, FALSE);
    idlok(stdscr, TRUE);
    scrollok(stdscr, FALSE);
    /* ncurses looks for typed-ahead input between the lines of every update (a poll of stdin
     * for each), to stop drawing a frame a slow line would take long to send. Locker's frames
     * leave in one write, and the next key redraws anyway: the polls only cost time. */
    typeahead(-1);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    lk_cursor_shown = -1;
    lk_select_ascii_once();
    /* Until its first endwin, ncurses flushes its output after every cursor movement (a state
     * meant for low-level terminfo programs): a scrolled 200×60 frame then leaves in ~70 writes,
     * each one waking the terminal. One endwin before anything is drawn puts it in the running
     * state, where a frame is one write. That endwin writes to /dev/null, so the terminal never
     * leaves the alternate screen; the first frame enters it again, as it would anyway. */
    doupdate();
    int saved_output = dup(STDOUT_FILENO);
    int null_output = open("/dev/null", O_WRONLY);
    if (saved_output >= 0 && null_output >= 0 && dup2(null_output, STDOUT_FILENO) >= 0) {
        endwin();
        dup2(saved_output, STDOUT_FILENO);
        reset_prog_mode();
    }
    if (null_output >= 0) close(null_output);
    if (saved_output >= 0) close(saved_output);
    return 0;
}

void lk_stop(void) {
    if (!lk_is_active) return;
    lk_is_active = 0;
    curs_set(1);
    endwin();
}

int lk_active(void) { return lk_is_active; }

void lk_suspend(void) {
    if (!lk_is_active) return;
    def_prog_mode();
    endwin();
}

void lk_resume(void) {
    if (!lk_is_active) return;
    reset_prog_mode();
    refresh();
}

/* ---- signals ----------------------------------------------------------------------------- */

static void lk_restore_and_reraise(int sig) {
    /* endwin is not formally async-signal-safe; htop and others accept the risk because the
     * alternative — a terminal left in raw mode on the alternate screen — is worse. */
    if (lk_is_active) {
        lk_is_active = 0;
        endwin();
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void lk_install_signal_handlers(void) {
    const int signals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS,
                           SIGILL,  SIGABRT, SIGFPE, SIGTRAP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = lk_restore_and_reraise;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigaction(signals[i], &action, NULL);
    }
}

/* ---- globals and macros ------------------------------------------------------------------ */

WINDOW *lk_stdscr(void) { return stdscr; }
int lk_lines(void) { return LINES; }
int lk_cols(void) { return COLS; }
int lk_colors(void) { return COLORS; }
int lk_color_pairs(void) { return COLOR_PAIRS; }
int lk_has_colors(void) { return has_colors() ? 1 : 0; }

unsigned int lk_attr_normal(void) { return A_NORMAL; }
unsigned int lk_attr_bold(void) { return A_BOLD; }
unsigned int lk_attr_dim(void) { return A_DIM; }
unsigned int lk_attr_reverse(void) { return A_REVERSE; }
unsigned int lk_attr_underline(void) { return A_UNDERLINE; }
unsigned int lk_attr_italic(void) { return A_ITALIC; }
int lk_key_f(int n) { return KEY_F(n); }
int lk_key_code_yes(void) { return KEY_CODE_YES; }

int lk_key_for_name(const char *capability) {
    char *sequence = tigetstr(capability);
    if (sequence == NULL || sequence == (char *)-1) return 0;
    int code = key_defined(sequence);
    return code > 0 ? code : 0;
}

/* ---- input ------------------------------------------------------------------------------- */

int lk_read(int *out) {
    wint_t value = 0;
    int status = wget_wch(stdscr, &value);
    *out = (int)value;
    return status;
}

void lk_set_timeout(int milliseconds) { wtimeout(stdscr, milliseconds); }

int lk_unread(int value, int is_key_code) {
    return is_key_code ? ungetch(value) : unget_wch((wchar_t)value);
}

/* ---- output ------------------------------------------------------------------------------ */

/* One narrow or wide character in one cell, or '?' when the locale cannot show it. */
static int lk_put_scalar(int y, int x, const wchar_t *chars, unsigned int attrs, int pair) {
    cchar_t cell;
    if (setcchar(&cell, chars, (attr_t)attrs, (short)0, &pair) == ERR) {
        const wchar_t fallback[2] = {L'?', L'\0'};
        setcchar(&cell, fallback, (attr_t)attrs, (short)0, &pair);
    }
    return mvwadd_wch(stdscr, y, x, &cell);
}

/* Whether one ncurses cell holds `cluster` as the terminal draws it over `span` columns: a spacing
 * character that wide, then only zero-width marks (a joiner binds the next character, so a
 * cluster with one is not), CCHARW_MAX scalars at most. */
static int lk_fits_one_cell(const wchar_t *cluster, int count, int span) {
    if (count > CCHARW_MAX || wcwidth(cluster[0]) != span) return 0;
    for (int i = 1; i < count; i++) {
        if (cluster[i] == 0x200D || wcwidth(cluster[i]) != 0) return 0;
    }
    return 1;
}

static int lk_is_regional_indicator(wchar_t c) { return c >= 0x1F1E6 && c <= 0x1F1FF; }

int lk_put_cell(int y, int x, const wchar_t *cluster, int count, int span, unsigned int attrs, int pair) {
    if (count < 1) return ERR;
    if (count == 1 || lk_fits_one_cell(cluster, count, span)) {
        wchar_t buffer[CCHARW_MAX + 1];
        int n = count < CCHARW_MAX ? count : CCHARW_MAX;
        for (int i = 0; i < n; i++) buffer[i] = cluster[i];
        buffer[n] = L'\0';
        return lk_put_scalar(y, x, buffer, attrs, pair);
    }
    /* A stand-in: ncurses measures a cell by its first character, and a terminal draws what
     * follows it its own way, so anything else would put ncurses' idea of the screen (and the
     * cursor) off by a column or leave a cell it never clears. */
    wchar_t first[2] = {cluster[0], L'\0'};
    if (count == 2 && span == 2 && lk_is_regional_indicator(cluster[0]) && lk_is_regional_indicator(cluster[1])) {
        for (int i = 0; i < 2; i++) {
            const wchar_t letter[2] = {(wchar_t)(L'A' + (cluster[i] - 0x1F1E6)), L'\0'};
            lk_put_scalar(y, x + i, letter, attrs, pair);
        }
        return OK;
    }
    int width = wcwidth(cluster[0]);
    if (width < 1 || width > span) {
        first[0] = L'?';
        width = 1;
    }
    int result = lk_put_scalar(y, x, first, attrs, pair);
    if (width < span) {
        const wchar_t blank[2] = {L' ', L'\0'};
        lk_put_scalar(y, x + 1, blank, attrs, pair);
    }
    return result;
}

/* Cells handed to ncurses in one call at most (a run longer than this takes several). */
enum { chunk = 256 };

/* Printable ASCII in a pair chtype can carry: one chtype per cell. waddchnstr copies these
 * into the window as they are, where wadd_wchnstr asks wcwidth and merges the window's
 * background for every cell (three quarters of the cost of a full 200x60 frame's cells). The
 * window has no background of its own, so the cells are the same. */
static int lk_put_ascii(int y, int x, const unsigned int *codes, int count, unsigned int attrs, int pair) {
    chtype cells[chunk];
    const chtype look = (chtype)attrs | (chtype)COLOR_PAIR(pair);
    for (int done = 0; done < count; done += chunk) {
        int n = count - done < chunk ? count - done : chunk;
        for (int i = 0; i < n; i++) cells[i] = (chtype)codes[done + i] | look;
        mvwaddchnstr(stdscr, y, x + done, cells, n);
    }
    return x + count;
}

/* Narrow cells from (y, x) in one wadd_wchnstr. Starting on a cell the window still holds as
 * the right half of a wide character (ncurses' wadd_wch does not clear the half it orphans
 * when a wide character is written one column off), wadd_wchnstr would blank every cell back
 * to that half's left one, the wide character just written there included. A narrow blank
 * copied there first (waddchnstr copies without looking) leaves it nothing to clear. */
static void lk_put_narrow(int y, int x, const cchar_t *cells, int n) {
    const chtype blank = ' ';
    mvwaddchnstr(stdscr, y, x, &blank, 1);
    mvwadd_wchnstr(stdscr, y, x, cells, n);
}

int lk_put_run(int y, int x, const unsigned int *codes, int count, unsigned int attrs, int pair) {
    int ascii = pair >= 0 && pair < 256;
    for (int i = 0; ascii && i < count; i++) ascii = codes[i] >= 0x20 && codes[i] < 0x7F;
    if (ascii) return lk_put_ascii(y, x, codes, count, attrs, pair);
    cchar_t cells[chunk];
    cchar_t blank;
    const wchar_t space[2] = {L' ', L'\0'};
    setcchar(&blank, space, (attr_t)attrs, (short)0, &pair);
    int column = x, filled = 0, start = x;
    for (int i = 0; i < count; i++) {
        wchar_t scalar = (wchar_t)codes[i];
        int width = scalar >= 0x20 && scalar < 0x7F ? 1 : wcwidth(scalar);
        if (width != 1) {
            /* wadd_wchnstr would not mark a wide character's second column: wadd_wch does. */
            if (filled > 0) lk_put_narrow(y, start, cells, filled);
            filled = 0;
            lk_put_cell(y, column, &scalar, 1, width == 2 ? 2 : 1, attrs, pair);
            column += width == 2 ? 2 : 1;
            start = column;
            continue;
        }
        if (filled == chunk) {
            lk_put_narrow(y, start, cells, filled);
            filled = 0;
            start = column;
        }
        cells[filled] = blank;
        cells[filled].chars[0] = scalar;
        filled += 1;
        column += 1;
    }
    if (filled > 0) lk_put_narrow(y, start, cells, filled);
    return column;
}

int lk_init_pair(int pair, int fg, int bg) {
    if (!has_colors()) return ERR;
    return init_extended_pair(pair, fg, bg);
}

void lk_cursor(int y, int x, int visible) {
    if (visible != lk_cursor_shown) {
        curs_set(visible ? 1 : 0);
        lk_cursor_shown = visible;
    }
    wmove(stdscr, y, x);
}

void lk_flush(void) {
    wnoutrefresh(stdscr);
    doupdate();
}

void lk_invalidate(void) { clearok(curscr, TRUE); }

void lk_bell(void) { beep(); }

void lk_write_raw(const char *bytes, int count) {
    /* The screen was made with newterm(term, stdout, stdin): its output is stdout. */
    if (lk_screen == NULL) return;
    fflush(stdout);
    fwrite(bytes, 1, (size_t)count, stdout);
    fflush(stdout);
}

void lk_erase(void) { werase(stdscr); }

void lk_clear_to_eol(int y, int x) {
    if (wmove(stdscr, y, x) != ERR) wclrtoeol(stdscr);
}
