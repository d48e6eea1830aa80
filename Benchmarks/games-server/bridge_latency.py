#!/usr/bin/env python3
"""Time from a booking request to its answer through the Games tab's helper (`games bridge`),
against a real server on loopback: what the tab waits for before it shows the result.

  Benchmarks/games-server/bridge_latency.py --server BINARY [--rounds 100]
"""
import argparse, json, os, pathlib, socket, statistics, subprocess, tempfile, time

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="bridge-latency-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    env = {**os.environ, "LOCKER_DATA_DIR": str(work / "data"), "LANG": "C.UTF-8"}
    server = subprocess.Popen([args.server, "serve", "--db", str(work / "g.sqlite"), "--listen", f"127.0.0.1:{port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    time.sleep(1.5)
    url = f"http://127.0.0.1:{port}"
    def cli(data, *a, stdin=None):
        return subprocess.run([args.server, "--data-dir", str(work / data), "--games-server", url, *a], input=stdin,
                              capture_output=True, text=True, check=True).stdout
    for user in ("organiser", "player"):
        cli(user, "account", "create", user, "--password-stdin", stdin=f"password-{user}\n")
        cli(user, "login", user, "--password-stdin", stdin=f"password-{user}\n")
    at = time.strftime("%Y-%m-%dT10:00", time.localtime(time.time() + 10 * 86400))
    game = json.loads(cli("organiser", "games", "create", "--ground", "casey-fields", "--at", at, "--players", "2", "--json"))["id"]
    bridge = subprocess.Popen([args.server, "--data-dir", str(work / "player"), "--games-server", url, "games", "bridge"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    # One line per request, written with the request's case name: {"ask":{"id":7,"request":{"book":{"game":42}}}}.
    def call(i, request, **fields):
        start = time.perf_counter()
        bridge.stdin.write(json.dumps({"ask": {"id": i, "request": {request: fields}}}) + "\n"); bridge.stdin.flush()
        reply = json.loads(bridge.stdout.readline())
        assert reply.get("answer", {}).get("id") == i, reply
        return (time.perf_counter() - start) * 1000
    call(0, "whoAmI")
    book = []
    for i in range(args.rounds):
        book.append(call(2 * i + 1, "book", game=game))
        call(2 * i + 2, "cancelBooking", game=game)
    book.sort()
    print(f"bridge booking round trip over {args.rounds} bookings: p50 {statistics.median(book):.2f} ms, "
          f"p95 {book[int(len(book) * 0.95) - 1]:.2f} ms, max {book[-1]:.2f} ms")
    bridge.stdin.close(); bridge.wait(timeout=10); server.terminate(); server.wait(timeout=10)

if __name__ == "__main__":
    main()
