"""Shared helpers for the scripts that drive a games server (`locker-games serve`).

Used by scripts/games-fuzz and scripts/games-soak. Standard library only.

    from games_harness import Server, request, sign_up, unique, game_start

    with Server(binary, store, workdir) as server:
        token = sign_up(server.base, unique("soak"), "a long pass phrase here")
        reply = request(server.base, "GET", "/v1/me", token=token)
        assert reply.status == 200 and reply.json["name"]

Everything here talks to loopback addresses only (127.0.0.0/8): a base or host that is not one is
refused with ValueError.
"""
import collections
import datetime
import http.client
import ipaddress
import json
import os
import pathlib
import secrets
import signal
import socket
import subprocess
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"

__all__ = ["ROOT", "HOST", "free_port", "Server", "ServerError", "HarnessConnectionError", "Reply", "request",
           "sign_up", "log_in", "unique", "game_start"]


class ServerError(RuntimeError):
    """The server could not be started, or answered a set-up request (sign-up, log-in) wrongly."""


class HarnessConnectionError(ConnectionError):
    """No HTTP answer: the connection was refused, reset or closed early, or the answer timed out.

    `method`, `path` and `elapsed` (seconds) say which request; `cause` is the underlying error.
    """

    def __init__(self, method, url, cause, elapsed):
        self.method, self.url, self.cause, self.elapsed = method, url, cause, elapsed
        super().__init__("%s %s: no answer after %.2f s (%s: %s)" % (method, url, elapsed, type(cause).__name__, cause))


Reply = collections.namedtuple("Reply", "status headers body json elapsed")
Reply.__doc__ = """One HTTP answer: `status` (int), `headers` (dict, lower-case names; repeated ones joined
with ", "), `body` (bytes), `json` (the body parsed as JSON, or None when it is not JSON) and `elapsed`
(seconds from connecting to the end of the body)."""


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (bind port 0, read it, let it go)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _host_port(base_or_port):
    """(host, port) from a port number or an http://HOST:PORT base; only loopback hosts."""
    if isinstance(base_or_port, int):
        return HOST, base_or_port
    parts = urllib.parse.urlsplit(str(base_or_port))
    if parts.scheme != "http" or not parts.hostname or not parts.port:
        raise ValueError("not an http://HOST:PORT base: %r" % (base_or_port,))
    if not _loopback(parts.hostname):
        raise ValueError("only loopback servers are contacted, not %r" % parts.hostname)
    return parts.hostname, parts.port


class Server:
    """One `locker-games serve` on 127.0.0.1 and a free port, over `store`.

    `store` is a SQLite file path or a postgres:// URL (its password, if any, from PGPASSWORD in the
    environment). The server runs in `workdir` (created if missing) with LOCKER_DATA_DIR=workdir/data
    and LOCKER_RESOURCES=the repository root, in its own session, its output in workdir/server.log.
    `extra_args` are added after the options given here; `env` adds or overrides environment variables.
    Use it as a context manager, or call start() and stop().
    """

    def __init__(self, binary, store, workdir, extra_args=(), env=None):
        # Absolute: the server runs in `workdir`, where a relative path would name nothing.
        self.binary = os.path.abspath(str(binary))
        self.store = str(store)
        self.workdir = pathlib.Path(workdir)
        self.extra_args = [str(a) for a in extra_args]
        self.env = dict(env or {})
        self.port = None
        self.proc = None
        self.log_path = self.workdir / "server.log"

    @property
    def base(self):
        """http://127.0.0.1:PORT (None before start())."""
        return None if self.port is None else "http://%s:%d" % (HOST, self.port)

    @property
    def pid(self):
        """The server's process id (None before start())."""
        return None if self.proc is None else self.proc.pid

    @property
    def returncode(self):
        """None while it runs; its exit status after (negative: the signal that ended it)."""
        return None if self.proc is None else self.proc.poll()

    def command(self):
        """The command line start() runs."""
        return [self.binary, "serve", "--listen", "%s:%d" % (HOST, self.port), "--db", self.store,
                "--account-rate", "100000"] + self.extra_args

    def start(self, timeout=30):
        """Launches the server on a free port and waits until GET /healthz answers 200.

        Raises ServerError (with the end of its log) when it exits first or is not ready within
        `timeout` seconds; a server that did not get ready is stopped. Returns self.
        """
        if self.alive():
            raise ServerError("the server is already running (pid %d)" % self.proc.pid)
        self.workdir.mkdir(parents=True, exist_ok=True)
        (self.workdir / "data").mkdir(exist_ok=True)
        env = dict(os.environ)
        env["LOCKER_DATA_DIR"] = str(self.workdir / "data")
        env["LOCKER_RESOURCES"] = str(ROOT)
        env.update(self.env)
        self.port = free_port()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(self.command(), cwd=str(self.workdir), env=env, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServerError("the server exited at start-up (status %s); its log ends:\n%s"
                                  % (self.proc.returncode, self.log_text()[-3000:]))
            try:
                if request(self.base, "GET", "/healthz", timeout=1).status == 200:
                    return self
            except HarnessConnectionError:
                pass
            time.sleep(0.1)
        self.stop()
        raise ServerError("the server did not answer GET /healthz with 200 within %s s; its log ends:\n%s"
                          % (timeout, self.log_text()[-3000:]))

    def alive(self):
        """True while the server process runs."""
        return self.proc is not None and self.proc.poll() is None

    def log_text(self):
        """Everything the server wrote so far (stdout and stderr), as text."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self, timeout=5):
        """SIGTERM, then waits up to `timeout` seconds; returns the seconds until the process ended.

        When it has not ended by then it gets SIGKILL (its whole process group) and the result is
        float("inf"). A server that had already ended (or never started) returns 0.0.
        """
        if self.proc is None or self.proc.poll() is not None:
            return 0.0
        started = time.monotonic()
        try:
            os.kill(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return 0.0
        try:
            self.proc.wait(timeout)
            return time.monotonic() - started
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        return float("inf")

    def __enter__(self):
        if not self.alive():
            self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def request(base_or_port, method, path, body=None, headers=None, token=None, timeout=10, source=None, raw_body=None):
    """Sends one request on a fresh connection (http.client) and reads the whole answer.

    `base_or_port`: http://127.0.0.x:PORT or a port on 127.0.0.1. `path` is sent as given (with its
    query; percent-encode it yourself). `body` is sent as JSON; `raw_body` (bytes or str) as it is,
    instead. Either sets Content-Type: application/json unless `headers` names one. `token` adds
    Authorization: Bearer TOKEN. `source` is a loopback address to connect from ("127.0.0.2"), so
    that clients look like different addresses. `timeout` (seconds) bounds connecting and each read.

    Returns a Reply. Raises HarnessConnectionError when there is no HTTP answer (refused, reset,
    closed, timed out). When the server answers and closes while the body is still being sent (413
    before a large body), the answer is read and returned all the same.
    """
    host, port = _host_port(base_or_port)
    if source is not None and not _loopback(source):
        raise ValueError("source must be a loopback address, not %r" % (source,))
    data = None
    if raw_body is not None:
        data = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)
    elif body is not None:
        data = json.dumps(body).encode("utf-8")
    sent_headers = {}
    if data is not None:
        sent_headers["Content-Type"] = "application/json"
    if token is not None:
        sent_headers["Authorization"] = "Bearer %s" % token
    for name, value in (headers or {}).items():
        for known in list(sent_headers):
            if known.lower() == name.lower():
                del sent_headers[known]
        sent_headers[name] = value
    url = "http://%s:%d%s" % (host, port, path)
    started = time.monotonic()
    conn = http.client.HTTPConnection(host, port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        try:
            conn.request(method, path, body=data, headers=sent_headers)
        except (BrokenPipeError, ConnectionResetError) as error:
            # The server may have answered (413) and closed before taking the whole body.
            if conn.sock is None:
                raise HarnessConnectionError(method, url, error, time.monotonic() - started) from error
        try:
            response = conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as error:
            raise HarnessConnectionError(method, url, error, time.monotonic() - started) from error
        reply_headers = {}
        for name, value in response.getheaders():
            name = name.lower()
            reply_headers[name] = value if name not in reply_headers else reply_headers[name] + ", " + value
        parsed = None
        if raw:
            try:
                parsed = json.loads(raw.decode("utf-8"))
            except ValueError:
                parsed = None
        return Reply(response.status, reply_headers, raw, parsed, time.monotonic() - started)
    except HarnessConnectionError:
        raise
    except (OSError, http.client.HTTPException) as error:
        raise HarnessConnectionError(method, url, error, time.monotonic() - started) from error
    finally:
        conn.close()


def _session(base, path, name, password, source, timeout):
    reply = request(base, "POST", path, body={"name": name, "password": password}, source=source, timeout=timeout)
    token = reply.json.get("token") if reply.status == 201 and isinstance(reply.json, dict) else None
    if not token:
        raise ServerError("POST %s for %r answered %d: %s" % (path, name, reply.status, reply.body[:300]))
    return token


def sign_up(base, name, password, source=None, timeout=20):
    """Creates the account (POST /v1/accounts) and returns its bearer token; ServerError otherwise."""
    return _session(base, "/v1/accounts", name, password, source, timeout)


def log_in(base, name, password, source=None, timeout=20):
    """Opens a new session (POST /v1/sessions) and returns its bearer token; ServerError otherwise."""
    return _session(base, "/v1/sessions", name, password, source, timeout)


def unique(prefix):
    """A username unique across runs (a PostgreSQL store may be reused): PREFIX-xxxxxxxxxx.

    At most 32 characters: `prefix` is cut to 21.
    """
    return "%s-%s" % (prefix[:21], secrets.token_hex(5))


def game_start(days_ahead=10):
    """An instant `days_ahead` days from today at 09:00 UTC, as the API writes it: 2026-12-07T09:00:00Z."""
    day = datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=days_ahead)
    return "%sT09:00:00Z" % day.isoformat()
