/*
 * ncurses' share of a frame: switches between two recorded screens, the way a minimal C
 * program on ncurses would draw them, and does nothing else. Each key draws every cell of the
 * other screen into stdscr (runs of one look in one call, printable ASCII as chtype cells, the
 * rest as cchar_t) and calls refresh(); ncurses then works out and sends the update, as it
 * does for Locker. Under ptybench its key latency is the floor under any program that draws
 * those screens through ncurses: the terminal's share (Benchmarks/frame-replay) plus ncurses'
 * own. See Benchmarks/frame-ncurses/README.md.
 *
 * usage: redraw SCREEN-A SCREEN-B   (each as `tmux capture-pane -e -p -N` prints it; q quits)
 */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

enum { max_rows = 300, max_columns = 500, max_pairs = 4096 };

typedef struct {
    wchar_t ch;          /* 0: the second column of a wide character */
    attr_t attrs;
    int pair;
} cell;

typedef struct {
    cell cells[max_rows][max_columns];
} screen;

static int pair_fg[max_pairs], pair_bg[max_pairs], pairs = 1;

/* The pair of a foreground and a background (-1: the terminal's default), made once. */
static int pair_of(int fg, int bg) {
    if (fg == -1 && bg == -1) return 0;
    for (int i = 1; i < pairs; i++)
        if (pair_fg[i] == fg && pair_bg[i] == bg) return i;
    if (pairs == max_pairs) return 0;
    pair_fg[pairs] = fg;
    pair_bg[pairs] = bg;
    init_extended_pair(pairs, fg, bg);
    return pairs++;
}

/* One SGR sequence's parameters ("1;38;5;214") applied to the current look. */
static void apply_sgr(const char *params, attr_t *attrs, int *fg, int *bg) {
    int values[32], count = 0;
    const char *p = params;
    while (count < 32) {
        values[count++] = (int)strtol(p, (char **)&p, 10);
        if (*p != ';') break;
        p++;
    }
    for (int i = 0; i < count; i++) {
        int v = values[i];
        if (v == 0) { *attrs = A_NORMAL; *fg = -1; *bg = -1; }
        else if (v == 1) *attrs |= A_BOLD;
        else if (v == 2) *attrs |= A_DIM;
        else if (v == 3) *attrs |= A_ITALIC;
        else if (v == 4) *attrs |= A_UNDERLINE;
        else if (v == 7) *attrs |= A_REVERSE;
        else if (v == 22) *attrs &= ~(A_BOLD | A_DIM);
        else if (v == 23) *attrs &= ~A_ITALIC;
        else if (v == 24) *attrs &= ~A_UNDERLINE;
        else if (v == 27) *attrs &= ~A_REVERSE;
        else if (v >= 30 && v <= 37) *fg = v - 30;
        else if (v == 39) *fg = -1;
        else if (v >= 40 && v <= 47) *bg = v - 40;
        else if (v == 49) *bg = -1;
        else if (v >= 90 && v <= 97) *fg = v - 90 + 8;
        else if (v >= 100 && v <= 107) *bg = v - 100 + 8;
        else if ((v == 38 || v == 48) && i + 2 < count && values[i + 1] == 5) {
            if (v == 38) *fg = values[i + 2]; else *bg = values[i + 2];
            i += 2;
        }
    }
}

/* Reads a screen as tmux prints it with its attributes: one line a row, SGR sequences
 * between the characters. */
static void load(const char *path, screen *s, int rows, int columns) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) { perror(path); exit(66); }
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < columns; x++) s->cells[y][x] = (cell){L' ', A_NORMAL, 0};
    static char line[1 << 16];
    attr_t attrs = A_NORMAL;
    int fg = -1, bg = -1;
    for (int y = 0; y < rows && fgets(line, sizeof line, file) != NULL; y++) {
        int x = 0;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        for (char *p = line; *p != '\0' && *p != '\n' && x < columns;) {
            if (p[0] == '\033' && p[1] == '[') {
                char *end = p + 2;
                while (*end != '\0' && (*end < 0x40 || *end > 0x7E)) end++;
                if (*end == 'm') {
                    char params[256];
                    size_t length = (size_t)(end - (p + 2));
                    if (length >= sizeof params) length = sizeof params - 1;
                    memcpy(params, p + 2, length);
                    params[length] = '\0';
                    apply_sgr(params, &attrs, &fg, &bg);
                }
                p = *end ? end + 1 : end;
                continue;
            }
            wchar_t ch;
            size_t used = mbrtowc(&ch, p, strlen(p), &state);
            if (used == (size_t)-1 || used == (size_t)-2 || used == 0) { ch = L'?'; used = 1; memset(&state, 0, sizeof state); }
            p += used;
            int width = wcwidth(ch);
            if (width < 1) continue;
            s->cells[y][x] = (cell){ch, attrs, pair_of(fg, bg)};
            if (width == 2 && x + 1 < columns) s->cells[y][x + 1] = (cell){0, attrs, 0};
            x += width;
        }
    }
    fclose(file);
}

/* Draws every cell of `s`: runs of one look, ASCII runs as chtype cells. */
static void draw(const screen *s, int rows, int columns) {
    static chtype ascii[max_columns];
    static cchar_t wide[max_columns];
    for (int y = 0; y < rows; y++) {
        int x = 0;
        while (x < columns) {
            const cell *first = &s->cells[y][x];
            int end = x;
            int plain = 1;
            while (end < columns && s->cells[y][end].attrs == first->attrs && s->cells[y][end].pair == first->pair) {
                wchar_t ch = s->cells[y][end].ch;
                if (ch != 0 && (ch < 0x20 || ch >= 0x7F)) plain = 0;
                end++;
            }
            if (plain && first->pair < 256) {
                int n = 0;
                for (int i = x; i < end; i++)
                    if (s->cells[y][i].ch != 0) ascii[n++] = (chtype)s->cells[y][i].ch | first->attrs | COLOR_PAIR(first->pair);
                mvwaddchnstr(stdscr, y, x, ascii, n);
            } else {
                for (int i = x; i < end; i++) {
                    if (s->cells[y][i].ch == 0) continue;
                    wchar_t text[2] = {s->cells[y][i].ch, L'\0'};
                    int pair = first->pair;
                    setcchar(&wide[0], text, first->attrs, 0, &pair);
                    mvwadd_wch(stdscr, y, i, &wide[0]);
                }
            }
            x = end;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: redraw SCREEN-A SCREEN-B\n");
        return 64;
    }
    setlocale(LC_ALL, "");
    initscr();
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    typeahead(-1);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    /* Until its first endwin, ncurses flushes after every cursor move; Locker's lk_start makes
     * that endwin to /dev/null before drawing, so each frame leaves in one write. The same here. */
    refresh();
    int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0 && dup2(null, STDOUT_FILENO) >= 0) {
        endwin();
        dup2(saved, STDOUT_FILENO);
        reset_prog_mode();
    }
    if (null >= 0) close(null);
    if (saved >= 0) close(saved);
    int rows = LINES < max_rows ? LINES : max_rows, columns = COLS < max_columns ? COLS : max_columns;
    static screen screens[2];
    load(argv[1], &screens[0], rows, columns);
    load(argv[2], &screens[1], rows, columns);
    int shown = 0;
    draw(&screens[shown], rows, columns);
    refresh();
    int key;
    while ((key = getch()) != 'q' && key != ERR) {
        shown = 1 - shown;
        draw(&screens[shown], rows, columns);
        refresh();
    }
    endwin();
    return 0;
}
