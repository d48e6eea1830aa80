#!/usr/bin/env python3
"""Electronic judging's two waits, measured as people see them (issue 38):

  pad → console    from a judge pressing Enter on their pad to the award showing on the
                   referee's console (the pad appends to the journal; the console sees the
                   journal change through inotify, reads it again and redraws)
  accept → board   from the referee's Enter that accepts a dive to the scoreboard showing it

Every program is a real `locker` process in a pseudo-terminal of its own (the console at 80×24,
the board at 80×24, each pad at 40×12), its output fed to a terminal emulator (pyte, `pip install
pyte`) so that a wait ends when the screen shows the value, not at the first byte. 5 pads × 20
dives = 100 awards, and 20 acceptances.

  latency.py LOCKER [--dives 20] [--json FILE]
"""
import argparse
import json
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

import fcntl
import termios

import pyte


class Program:
    """A program in a pseudo-terminal, its screen kept by pyte on a reader thread."""

    def __init__(self, argv, cols, rows, env):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.alive = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while self.alive:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.stream.feed(data)

    def send(self, text):
        os.write(self.fd, text.encode())

    def lines(self):
        with self.lock:
            return list(self.screen.display)

    def wait(self, predicate, timeout=10.0):
        """Polls the screen every 0.2 ms until `predicate(lines)`; returns when it became true."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if predicate(self.lines()):
                return time.perf_counter()
            time.sleep(0.0002)
        raise SystemExit("timed out; screen:\n" + "\n".join(self.lines()))

    def stop(self):
        self.alive = False
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def award_text(half):
    return str(half // 2) if half % 2 == 0 else f"{half // 2}.5"


def run(locker, dives=20, judges=5):
    work = tempfile.mkdtemp(prefix="locker-judging-")
    meet = os.path.join(work, "meet")
    env = {**os.environ, "LANG": "C.UTF-8", "TERM": "xterm-256color", "LOCKER_DATA_DIR": os.path.join(work, "data"), "NO_COLOR": ""}
    subprocess.run([locker, "meet", "new", meet, "--event", "Bench", "--pack", "wa2024-individual-women", "--judges", str(judges),
                    "--height", "3"], check=True, env=env, stdout=subprocess.DEVNULL)
    divers = (dives + 1) // 2
    csv = os.path.join(work, "sheets.csv")
    with open(csv, "w") as f:
        f.write("diver,club,round,code,height\n")
        for d in range(1, divers + 1):
            for r, code in ((1, "105B"), (2, "203C")):
                f.write(f"Diver {d:02d},Club,{r},{code},3\n")
    subprocess.run([locker, "meet", "import", meet, csv], check=True, env=env, stdout=subprocess.DEVNULL)
    console = Program([locker, "meet", meet], 80, 24, env)
    board = Program([locker, "meet", "board", meet], 80, 24, env)
    pads = [Program([locker, "meet", "judge", meet, "--seat", str(s)], 40, 12, env) for s in range(1, judges + 1)]
    to_console, to_board = [], []
    try:
        console.wait(lambda lines: any("dives recorded" in l for l in lines))
        for pad in pads:
            pad.wait(lambda lines: any("Seat" in l for l in lines))
        console.send(" ")                                    # the first dive, on the pads
        for dive in range(dives):
            for pad in pads:
                pad.wait(lambda lines: any("Your award" in l for l in lines))
            for seat, pad in enumerate(pads, start=1):
                half = 11 + seat                             # 6, 6.5, 7, 7.5, 8: each seat's own
                shown = f"{seat} {award_text(half)}"
                pad.send(award_text(half))
                sent = time.perf_counter()
                pad.send("\r")
                seen = console.wait(lambda lines: any("On the pads:" in l and shown in l for l in lines))
                to_console.append((seen - sent) * 1000)
            console.wait(lambda lines: any("Every seat has sent" in l for l in lines))
            console.send("\r")
            console.wait(lambda lines: any("Awards:" in l for l in lines))
            console.send("\r")
            console.wait(lambda lines: any("Read back:" in l for l in lines))
            # The board shows the recorded count only through the dive it heads with; watch the
            # ranking total of the number of dives accepted instead: the board's first row names
            # the diver and the second the round of the last accepted dive.
            before = "\n".join(board.lines())
            accepted = time.perf_counter()
            console.send("\r")
            seen = board.wait(lambda lines: "\n".join(lines) != before and any("Round" in l for l in lines))
            to_board.append((seen - accepted) * 1000)
    finally:
        for program in [console, board] + pads:
            program.stop()
        shutil.rmtree(work, ignore_errors=True)

    def summary(values):
        values = sorted(values)
        return {"n": len(values), "p50_ms": statistics.median(values), "p95_ms": values[max(0, int(len(values) * 0.95) - 1)],
                "max_ms": values[-1]}
    return {"pad_to_console": summary(to_console), "accept_to_board": summary(to_board)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("locker")
    parser.add_argument("--dives", type=int, default=20)
    parser.add_argument("--json")
    args = parser.parse_args()
    result = run(args.locker, args.dives)
    for name, label in (("pad_to_console", "pad Enter → console"), ("accept_to_board", "accept → board")):
        r = result[name]
        print(f"{label:22} n={r['n']:3}  p50 {r['p50_ms']:6.1f} ms  p95 {r['p95_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
