/*
 * The terminal's share of a frame: writes a recorded frame (the bytes one key made Locker send)
 * in one write() per key, and does nothing else. Under ptybench its key latency is what the
 * pseudo-terminal and the measuring terminal take to carry and parse those bytes, the floor
 * under any program that draws the same screen the same way. See README.md.
 *
 * usage: replay FRAME-FILE   (prints "ready" once, then one frame per key; q quits)
 */
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: replay FRAME-FILE\n");
        return 64;
    }
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) {
        perror(argv[1]);
        return 66;
    }
    static char frame[1 << 20];
    size_t length = fread(frame, 1, sizeof frame, file);
    fclose(file);

    struct termios saved, raw;
    tcgetattr(STDIN_FILENO, &saved);
    raw = saved;
    cfmakeraw(&raw);
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);

    static const char start[] = "\033[?1049h\033[Hready\r\n";
    if (write(STDOUT_FILENO, start, sizeof start - 1) < 0) return 74;
    char key;
    while (read(STDIN_FILENO, &key, 1) == 1 && key != 'q') {
        if (write(STDOUT_FILENO, frame, length) < 0) break;
    }
    static const char stop[] = "\033[?1049l";
    if (write(STDOUT_FILENO, stop, sizeof stop - 1) < 0) return 74;
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    return 0;
}
