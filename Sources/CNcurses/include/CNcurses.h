/*
 * CNcurses — the only door from Swift to ncurses (ncursesw).
 *
 * Swift cannot import ncurses macros, variadic functions or (in Swift 6 mode) its mutable
 * globals, so this header exposes the wide-character API plus small accessors for them.
 * Only the TerminalUI module imports it.
 */
#ifndef LOCKER_CNCURSES_H
#define LOCKER_CNCURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <ncurses.h>
#include <locale.h>
#include <wchar.h>
#include <stdio.h>

/* glibc hides these behind __USE_XOPEN. */
int wcwidth(wchar_t c);
int wcswidth(const wchar_t *s, size_t n);

/* ---- lifecycle ---------------------------------------------------------------------- */

/** setlocale(LC_ALL, "") and report whether the resulting codeset is UTF-8 (1) or not (0). */
int lk_setlocale_utf8(void);

/** newterm on stdin/stdout for `term` (NULL = $TERM). Returns 0 on success, -1 on failure. */
int lk_start(const char *term);

/** endwin() if the screen is active. Safe to call more than once and from signal handlers. */
void lk_stop(void);

/** 1 while the ncurses screen is active. */
int lk_active(void);

/** Install handlers for SIGTERM, SIGHUP, SIGINT, SIGQUIT and crash signals
 *  (SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP): restore the terminal, then re-raise. */
void lk_install_signal_handlers(void);

/** Leave curses mode for a moment (e.g. to run an external program); lk_resume() comes back. */
void lk_suspend(void);
void lk_resume(void);

/* ---- globals Swift 6 cannot touch ---------------------------------------------------- */
WINDOW *lk_stdscr(void);
int lk_lines(void);
int lk_cols(void);
int lk_colors(void);
int lk_color_pairs(void);
int lk_has_colors(void);

/* ---- attributes and keys (macros) ----------------------------------------------------- */
unsigned int lk_attr_normal(void);
unsigned int lk_attr_bold(void);
unsigned int lk_attr_dim(void);
unsigned int lk_attr_reverse(void);
unsigned int lk_attr_underline(void);
unsigned int lk_attr_italic(void);
int lk_key_f(int n);
int lk_key_code_yes(void);
/** The ncurses key code for a terminfo capability name such as "kLFT2", or 0. */
int lk_key_for_name(const char *capability);

/* ---- input ------------------------------------------------------------------------------ */

/** wget_wch on stdscr. Returns ERR (timeout), OK (character in *out) or KEY_CODE_YES (key code in *out). */
int lk_read(int *out);
/** Gives a key read with lk_read back, to be read again first. */
int lk_unread(int value, int is_key_code);
/** Milliseconds to wait in lk_read; -1 blocks. */
void lk_set_timeout(int milliseconds);

/* ---- output ----------------------------------------------------------------------------- */

/** Write one grapheme at (y, x) over `span` cells (1 or 2, as the app measured it):
 *  `cluster` holds its `count` scalars, drawn with `attrs` and colour pair `pair`. A cluster
 *  ncurses cannot keep in one cell as wide as that (a flag, an emoji with a skin tone or
 *  joined to another, a character made wide by a variation selector) is drawn as a stand-in
 *  over the same columns: a flag's two letters, else its first character. */
int lk_put_cell(int y, int x, const wchar_t *cluster, int count, int span, unsigned int attrs, int pair);
/** Write a run of cells in one style from (y, x), each one Unicode scalar (the column after a
 *  wide one is not in `codes`): one call instead of one per cell. Narrow scalars are copied in
 *  one wadd_wchnstr; wide ones and ones the locale cannot show go through lk_put_cell.
 *  Returns the column after the run. */
int lk_put_run(int y, int x, const unsigned int *codes, int count, unsigned int attrs, int pair);
/** Define colour pair `pair` (extended pairs supported). fg/bg -1 = terminal default. */
int lk_init_pair(int pair, int fg, int bg);
/** Place the hardware cursor at (y, x) and show (1) or hide (0) it. */
void lk_cursor(int y, int x, int visible);
/** Copy pending changes to the terminal (wnoutrefresh + doupdate). */
void lk_flush(void);
/** Rings the terminal bell (or flashes, as the terminal prefers). */
void lk_bell(void);
/** Writes bytes straight to the terminal after a refresh (OSC 8 hyperlinks), then flushes. */
void lk_write_raw(const char *bytes, int count);
/** Force a full repaint on the next flush (Ctrl-L). */
void lk_invalidate(void);
/** Erase the virtual screen so the next frame is drawn on a blank one. */
void lk_erase(void);
/* Blanks row y from column x to its end (default colours, no attributes). */
void lk_clear_to_eol(int y, int x);

#endif
