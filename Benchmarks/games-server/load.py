#!/usr/bin/env python3
"""Load on a real `locker-games serve`, on SQLite and on PostgreSQL (issue 13's measurements).

  Benchmarks/games-server/load.py --server BINARY --data DIR [--pg-cluster DIR] [--json FILE]

1. race:  200 clients, each with its own account and connection, book one game with 22 free
          places at the same moment: how many are going and waitlisted, errors, wall time.
2. churn: (PostgreSQL) 50 clients, each on its own game, book and cancel in a loop for 10 s: requests per second and
          p50/p99 latency; then `pgbench -N -c 50 -T 10` on the same cluster for comparison.
3. idle:  the server's RSS with 200 open connections (live feeds).
4. throughput: 20 clients, each with its own account, address and keep-alive connection:
          for 8 s each reads the games near 3977 in a loop, then for 8 s each books and
          cancels a game of its own: requests per second and p50/p99 of each, and the
          server's peak RSS (VmHWM) at the end.

  --scenarios race,idle,churn,throughput  (default: all) runs only those.

Uses only the standard library (threads and http.client), so it runs wherever Locker builds.
Each client connects from its own loopback address (`source(index)`), as players on many machines
do: the server keeps at most 32 connections per address.
"""
import argparse
import http.client
import json
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def source(index):
    """Client `index`'s own address on this machine (all of 127.0.0.0/8 is loopback)."""
    return f"127.0.{index // 250}.{index % 250 + 2}"


class Client:
    """One keep-alive connection to the server, from `source(index)` (127.0.0.1 when None)."""

    def __init__(self, port, token=None, index=None):
        address = (source(index), 0) if index is not None else None
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=address)
        self.token = token

    def call(self, method, path, body=None, key=None):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        if key:
            headers["Idempotency-Key"] = key
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else None)


def start_server(binary, store, data_dir, port):
    env = {**os.environ, "LOCKER_DATA_DIR": str(data_dir), "LANG": "C.UTF-8"}
    log = open(data_dir / f"server-{port}.log", "w")
    process = subprocess.Popen([binary, "serve", "--db", store, "--listen", f"127.0.0.1:{port}", "--account-rate", "1000000"],
                               stdout=log, stderr=log, env=env)
    for _ in range(300):
        try:
            status, _ = Client(port).call("GET", "/healthz")
            if status == 200:
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"server on {store} did not start; see {log.name}")


def accounts(port, names):
    """Signs up every name in parallel (password hashing is the slow part); returns tokens."""
    tokens = {}
    def work(chunk):
        client = Client(port)
        for name in chunk:
            status, body = client.call("POST", "/v1/accounts", {"name": name, "password": "password-" + name})
            assert status == 201, (status, body)
            tokens[name] = body["token"]
    threads = [threading.Thread(target=work, args=(names[i::8],)) for i in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    return [tokens[n] for n in names]


def in_days(days):
    return time.strftime("%Y-%m-%dT10:00:00Z", time.gmtime(time.time() + days * 86400))


def race(port, prefix, bookers=200, free=22):
    organiser, *tokens = accounts(port, [f"{prefix}org"] + [f"{prefix}b{i}" for i in range(bookers)])
    status, game = Client(port, organiser).call("POST", "/v1/games", {"ground": "casey-fields", "startsAt": in_days(7),
                                                                      "players": 1, "capacity": 1 + free})
    assert status == 201, game
    clients = [Client(port, t, index=i) for i, t in enumerate(tokens)]
    for c in clients:  # open every connection before the start
        c.call("GET", "/v1/me")
    barrier = threading.Barrier(len(clients) + 1)
    results = [None] * len(clients)
    def book(index):
        barrier.wait()
        sent = time.perf_counter()
        try:
            status, body = clients[index].call("POST", f"/v1/games/{game['id']}/booking", key=f"race-{index}")
            results[index] = (status, body.get("myStatus") if status == 200 else body.get("code"), sent, time.perf_counter())
        except Exception as error:  # noqa: BLE001 — a failed request is counted, not fatal
            results[index] = (0, str(error), sent, time.perf_counter())
    threads = [threading.Thread(target=book, args=(i,)) for i in range(len(clients))]
    for t in threads: t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads: t.join()
    wall = time.perf_counter() - start
    going = sum(1 for r in results if r[1] == "going")
    waitlisted = sum(1 for r in results if r[1] == "waitlisted")
    errors = sum(1 for r in results if r[0] != 200)
    _, roster = Client(port, organiser).call("GET", f"/v1/games/{game['id']}/roster")
    since = [entry["since"] for entry in roster["waitlisted"]]
    latencies = sorted((r[3] - r[2]) * 1000 for r in results)
    return {"bookers": bookers, "free": free, "going": going, "waitlisted": waitlisted, "errors": errors,
            "roster_going": len(roster["going"]), "roster_waitlisted": len(roster["waitlisted"]),
            "waitlist_in_booking_order": since == sorted(since), "wall_ms": wall * 1000,
            "p50_ms": statistics.median(latencies), "p99_ms": latencies[int(len(latencies) * 0.99) - 1]}


def churn_binary(data):
    """Benchmarks/games-server/churn.c compiled into DATA, or None without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not compiler:
        return None
    binary = pathlib.Path(data) / "churn"
    subprocess.run([compiler, "-O2", "-pthread", "-o", str(binary), str(pathlib.Path(__file__).with_name("churn.c"))], check=True)
    return binary


def churn(port, prefix, data, clients=50, seconds=10, games=50):
    """50 clients, each on its own game, book and cancel for 10 s. The load comes from churn.c
    (threads in C, nearly free, as pgbench's own client is); without a C compiler, from Python
    threads, which take a good share of the two cores themselves (the report says which)."""
    # One organiser per 10 games: an account may create 10 games an hour.
    organisers = (games + 9) // 10
    everyone = accounts(port, [f"{prefix}org{i}" for i in range(organisers)] + [f"{prefix}c{i}" for i in range(clients)])
    organiser_tokens, tokens = everyone[:organisers], everyone[organisers:]
    ids = []
    for index in range(games):
        status, game = Client(port, organiser_tokens[index // 10]).call("POST", "/v1/games", {"ground": "casey-fields", "startsAt": in_days(8),
                                                                                              "players": 1, "capacity": 50})
        ids.append(game["id"])
    binary = churn_binary(data)
    if binary:
        lines = "".join(f"{tokens[i]} {ids[i % games]}\n" for i in range(clients))
        out = subprocess.run([str(binary), str(port), str(seconds)], input=lines, capture_output=True, text=True, check=True).stdout
        return {**json.loads(out), "load_generator": "churn.c"}
    latencies, errors = [], [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds
    def work(index):
        client = Client(port, tokens[index], index=index)
        game = ids[index % games]
        mine, bad = [], 0
        while time.perf_counter() < stop:
            for method in ("POST", "DELETE"):
                sent = time.perf_counter()
                status, _ = client.call(method, f"/v1/games/{game}/booking")
                mine.append((time.perf_counter() - sent) * 1000)
                bad += status != 200
        with lock:
            latencies.extend(mine)
            errors[0] += bad
    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {"clients": clients, "seconds": elapsed, "requests": len(latencies), "errors": errors[0],
            "requests_per_second": len(latencies) / elapsed, "p50_ms": statistics.median(latencies),
            "p99_ms": latencies[int(len(latencies) * 0.99) - 1], "load_generator": "python threads"}


def loop(clients, seconds, step):
    """Runs `step(client, index)` on every client in its own thread for `seconds`; returns
    requests per second, p50 and p99 (ms) and how many answers were not 2xx."""
    latencies, errors = [], [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds
    def work(index):
        mine, bad = [], 0
        while time.perf_counter() < stop:
            sent = time.perf_counter()
            status = step(clients[index], index)
            mine.append((time.perf_counter() - sent) * 1000)
            bad += not 200 <= status < 300
        with lock:
            latencies.extend(mine)
            errors[0] += bad
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(clients))]
    start = time.perf_counter()
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {"requests_per_second": len(latencies) / elapsed, "requests": len(latencies), "errors": errors[0],
            "p50_ms": statistics.median(latencies), "p99_ms": latencies[int(len(latencies) * 0.99) - 1]}


def throughput(port, prefix, pid, clients=20, seconds=8):
    """20 clients read the games near 3977, then book and cancel games of their own."""
    organisers = (clients + 9) // 10
    everyone = accounts(port, [f"{prefix}to{i}" for i in range(organisers)] + [f"{prefix}tc{i}" for i in range(clients)])
    organiser_tokens, tokens = everyone[:organisers], everyone[organisers:]
    ids = []
    for index in range(clients):
        status, game = Client(port, organiser_tokens[index // 10]).call(
            "POST", "/v1/games", {"ground": "casey-fields", "startsAt": in_days(9), "players": 1, "capacity": 50})
        assert status == 201, game
        ids.append(game["id"])
    connections = [Client(port, token, index=1000 + i) for i, token in enumerate(tokens)]
    read = loop(connections, seconds, lambda client, _: client.call("GET", "/v1/games?near=3977")[0])
    turns = [0] * clients
    def book(client, index):
        turns[index] += 1
        if turns[index] % 2:
            return client.call("POST", f"/v1/games/{ids[index]}/booking", key=f"{prefix}-{index}-{turns[index]}")[0]
        return client.call("DELETE", f"/v1/games/{ids[index]}/booking")[0]
    booking = loop(connections, seconds, book)
    peak = None
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    return {"clients": clients, "seconds": seconds, "read": read, "booking": booking, "peak_rss_mib": peak}


def pgbench(address, clients=50, seconds=10):
    tool = shutil.which("pgbench") or next(iter(sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/pgbench"))), None)
    if not tool:
        return {"skipped": "pgbench not found"}
    subprocess.run([str(tool), "-i", "-q", "-s", "1", address], check=True, capture_output=True)
    out = subprocess.run([str(tool), "-N", "-c", str(clients), "-j", "2", "-T", str(seconds), address],
                         check=True, capture_output=True, text=True).stdout
    tps = [float(line.split("=")[1].split()[0]) for line in out.splitlines() if line.startswith("tps =")]
    latency = [float(line.split("=")[1].split()[0]) for line in out.splitlines() if line.startswith("latency average")]
    return {"clients": clients, "seconds": seconds, "tps": tps[0] if tps else None, "latency_avg_ms": latency[0] if latency else None}


def idle_rss(port, pid, connections=200):
    sockets = []
    for index in range(connections):
        s = socket.create_connection(("127.0.0.1", port), source_address=(source(index), 0))
        s.sendall(b"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        sockets.append(s)
    time.sleep(1.0)
    rss = None
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    for s in sockets:
        s.close()
    return {"connections": connections, "rss_mib": rss}


def run(binary, data, pg_cluster, scenarios=("race", "idle", "churn", "throughput")):
    data = pathlib.Path(data)
    data.mkdir(parents=True, exist_ok=True)
    report = {}
    stores = [("sqlite", str(data / "games.sqlite"))]
    cluster = None
    if pg_cluster:
        port = free_port()
        address = subprocess.run([str(ROOT / "scripts/pg-cluster"), "start", pg_cluster, str(port)], check=True,
                                 capture_output=True, text=True).stdout.strip()
        cluster = pg_cluster
        stores.append(("postgres", address))
    try:
        for name, store in stores:
            port = free_port()
            server = start_server(binary, store, data, port)
            try:
                entry = {}
                if "throughput" in scenarios:
                    entry["throughput"] = t = throughput(port, name[:2], server.pid)
                    for kind in ("read", "booking"):
                        print(f"games-server {name:8} {kind:7} {t['clients']} clients: {t[kind]['requests_per_second']:.0f} requests/s, "
                              f"p50 {t[kind]['p50_ms']:.1f} ms, p99 {t[kind]['p99_ms']:.1f} ms, errors {t[kind]['errors']}")
                    print(f"games-server {name:8} peak RSS after them: {t['peak_rss_mib']:.1f} MiB")
                if "race" in scenarios:
                    entry["race"] = r = race(port, name[:2])
                    print(f"games-server {name:8} race: {r['bookers']} bookers, {r['free']} places → going {r['going']}, "
                          f"waitlisted {r['waitlisted']}, errors {r['errors']}, {r['wall_ms']:.0f} ms "
                          f"(p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms)")
                if "idle" in scenarios:
                    entry["idle"] = idle_rss(port, server.pid)
                    print(f"games-server {name:8} RSS with {entry['idle']['connections']} open connections: {entry['idle']['rss_mib']:.1f} MiB")
                if name == "postgres" and "churn" in scenarios:
                    entry["churn"] = churn(port, "pg", data)
                    c = entry["churn"]
                    print(f"games-server {name:8} churn: {c['clients']} clients, {c['requests_per_second']:.0f} requests/s, "
                          f"p50 {c['p50_ms']:.1f} ms, p99 {c['p99_ms']:.1f} ms, errors {c['errors']} (load from {c['load_generator']})")
                    entry["pgbench"] = pgbench(store)
                    p = entry["pgbench"]
                    if p.get("tps"):
                        entry["ratio_to_pgbench"] = c["requests_per_second"] / p["tps"]
                        print(f"games-server {name:8} pgbench -N: {p['tps']:.0f} tps → Locker at {entry['ratio_to_pgbench'] * 100:.0f} %")
                report[name] = entry
            finally:
                server.terminate()
                server.wait(timeout=30)
    finally:
        if cluster:
            subprocess.run([str(ROOT / "scripts/pg-cluster"), "stop", cluster], check=False)
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--pg-cluster")
    parser.add_argument("--json")
    parser.add_argument("--scenarios", default="race,idle,churn,throughput")
    args = parser.parse_args()
    data = pathlib.Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    report = run(args.server, data, args.pg_cluster, args.scenarios.split(","))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
