/*
 * list.c - minimal C ncurses baseline for Locker's terminal benchmarks.
 *
 * A tiny "tab bar + scrolling list" app, drawn the way a careful ncurses
 * program would draw it, so that Locker can be measured side by side against
 * it with /work/shared/tools/ptybench.py --vs.  See README.md.
 *
 * Layout:  row 0        tab bar, current tab in reverse video
 *          rows 1..L-2  list of NROWS rows, selected row in reverse video
 *          row L-1      footer
 *
 * Keys: Up/Down/PgUp/PgDn/Home/End move, 1..6 switch tab, q (or Ctrl-C)
 * quits, KEY_RESIZE re-lays out.
 *
 * Drawing: a key that only moves the selection inside the window rewrites
 * the two rows whose selection state changed; a key that scrolls rewrites the
 * list rows; a tab switch rewrites the tab bar; a resize rewrites everything.
 * Each handled key ends with exactly one refresh(); clear() is never called.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NROWS 200
#define NTABS 6
#define LINE_MAX_COLS 4096

enum { PAIR_BAR = 1, PAIR_FOOTER = 2 };

static const char *const tab_names[NTABS] = {
    "Rules", "Penalties", "Quiz", "Grades", "Workout", "Games",
};

static const char *const descriptions[] = {
    "penalty-like description text of medium length",
    "late arrival to the morning briefing, written warning",
    "forgot to log the workout, ten extra push-ups",
    "quiz answer left blank, counts as wrong",
    "missed the deadline for the weekly grade report",
    "borrowed the locker key without asking first",
    "left the equipment room unlocked overnight",
};
#define NDESC (sizeof descriptions / sizeof descriptions[0])

static int sel;        /* selected row, 0..NROWS-1 */
static int top;        /* first visible row */
static int tab;        /* current tab, 0..NTABS-1 */
static int has_colour;
static char line[LINE_MAX_COLS + 1];

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Number of list rows on screen (0 on terminals with fewer than 3 lines). */
static int list_height(void) { return LINES > 2 ? LINES - 2 : 0; }

static int width(void) { return COLS < LINE_MAX_COLS ? COLS : LINE_MAX_COLS; }

/* Move `top` so that `sel` is visible; returns 1 if `top` changed. */
static int keep_visible(void) {
    int h = list_height(), old = top;
    if (h <= 0) {
        top = sel;
        return top != old;
    }
    if (sel < top)
        top = sel;
    else if (sel >= top + h)
        top = sel - h + 1;
    top = clamp(top, 0, NROWS > h ? NROWS - h : 0);
    return top != old;
}

static void draw_tabs(void) {
    int w = width(), x = 0;
    if (LINES < 1 || w <= 0)
        return;
    move(0, 0);
    attrset(has_colour ? COLOR_PAIR(PAIR_BAR) : A_NORMAL);
    for (int i = 0; i < NTABS && x < w; i++) {
        char seg[32];
        int n = snprintf(seg, sizeof seg, " %d %s ", i + 1, tab_names[i]);
        if (n > w - x)
            n = w - x;
        if (i == tab)
            attron(A_REVERSE);
        addnstr(seg, n);
        if (i == tab)
            attroff(A_REVERSE);
        x += n;
    }
    /* Fill the rest of the bar with the bar colour (clrtoeol would use the
     * window background instead). */
    if (x < w) {
        memset(line, ' ', (size_t)(w - x));
        addnstr(line, w - x);
    }
    attrset(A_NORMAL);
}

/* Draw list row `row` (index into the data) if it is on screen. */
static void draw_row(int row) {
    int h = list_height(), w = width();
    int y = 1 + row - top;
    if (row < top || row >= top + h || w <= 0)
        return;
    /* Pad to the full width so the selection bar spans the line and stale
     * text is overwritten without clrtoeol. */
    int n = snprintf(line, sizeof line, "Row %03d  %s", row + 1,
                     descriptions[row % NDESC]);
    if (n > w)
        n = w;
    memset(line + n, ' ', (size_t)(w - n));
    line[w] = '\0';
    attrset(row == sel ? A_REVERSE : A_NORMAL);
    mvaddnstr(y, 0, line, w);
    attrset(A_NORMAL);
}

static void draw_list(void) {
    int h = list_height();
    for (int i = 0; i < h; i++) {
        int row = top + i;
        if (row < NROWS) {
            draw_row(row);
        } else {
            move(1 + i, 0);
            clrtoeol();
        }
    }
}

static void draw_footer(void) {
    if (LINES < 2 || COLS <= 0)
        return;
    move(LINES - 1, 0);
    attrset(has_colour ? COLOR_PAIR(PAIR_FOOTER) : A_NORMAL);
    addnwstr(L"\u2191\u2193 move  q quit", COLS);
    attrset(A_NORMAL);
    clrtoeol();
}

static void draw_all(void) {
    keep_visible();
    draw_tabs();
    draw_list();
    draw_footer();
}

/* Move the selection to `to`; redraw as little as possible.  Returns 1 if
 * anything was drawn. */
static int select_row(int to) {
    int from = sel;
    to = clamp(to, 0, NROWS - 1);
    if (to == from)
        return 0;
    sel = to;
    if (keep_visible()) {
        draw_list();
    } else {
        draw_row(from);
        draw_row(to);
    }
    return 1;
}

int main(void) {
    setlocale(LC_ALL, "");

    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (scr == NULL) {
        const char *term = getenv("TERM");
        fprintf(stderr, "list: cannot initialise the terminal (TERM=%s)\n",
                term ? term : "(unset)");
        return 1;
    }
    set_term(scr);
    raw();
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    if (has_colors()) {
        has_colour = 1;
        start_color();
        int bg = use_default_colors() == OK ? -1 : COLOR_BLACK;
        init_pair(PAIR_BAR, COLOR_BLACK, COLOR_CYAN);
        init_pair(PAIR_FOOTER, COLOR_CYAN, bg);
    }

    draw_all();
    refresh();

    int errors = 0;
    for (;;) {
        int ch = getch();
        int page = list_height() > 1 ? list_height() : 1;
        int dirty = 1;
        if (ch != ERR)
            errors = 0;
        switch (ch) {
        case 'q':
        case 3: /* Ctrl-C: raw() mode delivers it as a key */
            endwin();
            delscreen(scr);
            return 0;
        case KEY_UP:    dirty = select_row(sel - 1); break;
        case KEY_DOWN:  dirty = select_row(sel + 1); break;
        case KEY_PPAGE: dirty = select_row(sel - page); break;
        case KEY_NPAGE: dirty = select_row(sel + page); break;
        case KEY_HOME:  dirty = select_row(0); break;
        case KEY_END:   dirty = select_row(NROWS - 1); break;
        case '1': case '2': case '3': case '4': case '5': case '6':
            if (ch - '1' == tab) {
                dirty = 0;
            } else {
                tab = ch - '1';
                draw_tabs();
            }
            break;
        case KEY_RESIZE:
            draw_all();
            break;
        case ERR:
            /* An interrupted read can return ERR once; a closed stdin returns
             * it forever: give up then instead of spinning. */
            if (++errors >= 100) {
                endwin();
                delscreen(scr);
                return 1;
            }
            continue;
        default:
            dirty = 0;
            break;
        }
        if (dirty)
            refresh();
    }
}
