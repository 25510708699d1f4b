"""The real stack for bench/load.py, all on loopback, every part started here and stopped at the end:
a Redis of its own (so a Redis outage and the broker's message count touch nobody else), a scratch
PostgreSQL database on the local server (or, for --fault pg-restart, a PostgreSQL cluster of its
own, so restarting it touches nobody else), an SMTP sink that counts what arrives,
gunicorn, Celery workers and beat from this virtualenv."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from email.parser import BytesHeaderParser
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PG_BIN = Path("/usr/lib/postgresql/15/bin")
# The pool of each queue's worker where it is not one process, as deploy/Procfile runs them: mail
# waits on SMTP (threads), render draws maps (CPU: processes).
POOLS = {
    "mail": ["--pool=threads", f"--concurrency={os.environ.get('MAIL_CONCURRENCY', '8')}"],
    "render": [f"--concurrency={os.environ.get('RENDER_CONCURRENCY', '4')}"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if check():
                return
        except Exception:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up in {timeout:.0f} s")


class _Remote:
    """An object run in a process of its own (spawned: no copy of the driver's threads), driven by
    calls over a pipe. The SMTP sink and the broker counter ran in the load driver's interpreter,
    where forty player threads held the GIL: the sink took mail at the driver's pace (a backlog after
    an SMTP freeze drained at ~22 mails/s whatever the workers could send) and the counter's MONITOR
    parsing slowed the players. A real SMTP server is a process of its own; so is this one now."""

    def __init__(self, target, *args):
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._lock = threading.Lock()
        self.proc = ctx.Process(target=_serve, args=(child, target, args), daemon=True)
        self.proc.start()
        self.call("ping")

    def call(self, name: str, *args):
        with self._lock:
            self._conn.send((name, args))
            ok, value = self._conn.recv()
        if not ok:
            raise RuntimeError(f"{name}: {value}")
        return value

    def close(self):
        if self.proc.is_alive():
            try:
                self.call("stop")
            except (EOFError, OSError, RuntimeError):
                pass
            self.proc.join(10)
        if self.proc.is_alive():
            self.proc.kill()


def _serve(conn, target, args):
    obj = target(*args)
    while True:
        name, call_args = conn.recv()
        try:
            value = None if name == "ping" else getattr(obj, name)(*call_args)
            conn.send((True, value))
        except Exception as exc:  # sent back to the caller
            conn.send((False, repr(exc)))
        if name == "stop":
            return


class _Sink:
    """A minimal SMTP server (the commands smtplib uses: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT)
    that counts deliveries by (Message-ID, recipient) - a game's first mail to each seat shares the
    game's thread Message-ID; ``freeze()`` makes it hold every message unanswered.

    Not aiosmtpd (the tests' server): it reads DATA a line at a time in Python, ~19 ms of CPU for a
    ~300 kB report (its map twice in base64), more than our sender spends on one, so the sink set how
    fast a backlog drained after an SMTP freeze. An MTA such as Postfix takes a message in well under
    a millisecond of CPU; this one reads DATA in one piece up to its end marker, which is closer."""

    def __init__(self, port: int):
        self.received: Counter[tuple[str, str]] = Counter()
        self._thawed = threading.Event()
        self._thawed.set()
        self.loop = asyncio.new_event_loop()
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._session, "127.0.0.1", port, limit=1 << 26)
        )
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"220 sink ESMTP\r\n")
        rcpts: list[str] = []
        try:
            while line := await reader.readline():
                verb = line[:4].upper()
                if verb == b"EHLO":
                    writer.write(b"250-sink\r\n250-8BITMIME\r\n250 SIZE 67108864\r\n")
                elif verb == b"MAIL":
                    rcpts = []
                    writer.write(b"250 OK\r\n")
                elif verb == b"RCPT":
                    rcpts.append(line.split(b"<", 1)[-1].split(b">", 1)[0].decode().lower())
                    writer.write(b"250 OK\r\n")
                elif verb == b"DATA":
                    writer.write(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    await writer.drain()
                    # smtplib ends a message with CRLF before the dot, so the marker is always whole.
                    content = (await reader.readuntil(b"\r\n.\r\n"))[:-3]
                    await self._deliver(content, rcpts)
                    writer.write(b"250 OK\r\n")
                elif verb == b"QUIT":
                    writer.write(b"221 Bye\r\n")
                    await writer.drain()
                    break
                elif verb in (b"HELO", b"RSET", b"NOOP"):
                    writer.write(b"250 OK\r\n")
                else:
                    writer.write(b"500 Unknown command\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # a client that hung up (a timed-out sender)
        finally:
            writer.close()

    async def _deliver(self, content: bytes, rcpts: list[str]) -> None:
        while not self._thawed.is_set():  # a hung server: the client waits, up to its own timeout
            await asyncio.sleep(0.1)
        content = content[1:] if content.startswith(b"..") else content  # RFC 5321 4.5.2, undone
        head = content.replace(b"\r\n..", b"\r\n.").split(b"\r\n\r\n", 1)[0]
        msgid = BytesHeaderParser().parsebytes(head).get("Message-ID", "")
        for rcpt in rcpts:
            self.received[(msgid.strip(), rcpt)] += 1

    def counts(self) -> Counter:
        return Counter(self.received)

    def freeze(self):
        self._thawed.clear()

    def thaw(self):
        self._thawed.set()

    def stop(self):
        self.thaw()
        self.loop.call_soon_threadsafe(self.server.close)


class _Served:
    """The driver's side of an object a _Remote serves: its counts, asked for when read and kept
    after the stop (the report reads them then)."""

    def __init__(self, target, *args):
        self._target, self._args = target, args
        self._remote: _Remote | None = None
        self._last: Counter = Counter()

    def start(self):
        self._remote = _Remote(self._target, *self._args)

    def _counts(self) -> Counter:
        if self._remote is not None and self._remote.proc.is_alive():
            self._last = self._remote.call("counts")
        return self._last

    def _call(self, name: str):
        assert self._remote is not None, "not started"
        return self._remote.call(name)

    def stop(self):
        if self._remote is not None:
            self._counts()
            self._remote.close()


class SmtpSink(_Served):
    """The SMTP sink (_Sink) in a process of its own: ``received`` (a Counter by (Message-ID,
    recipient)); ``freeze()`` and ``thaw()`` as a hung server would."""

    def __init__(self):
        self.port = free_port()
        super().__init__(_Sink, self.port)

    received = property(_Served._counts)

    def freeze(self):
        self._call("freeze")

    def thaw(self):
        self._call("thaw")


class _Monitor:
    """Counts the messages put on the broker's queues, by task (Redis MONITOR of our own Redis)."""

    TASK = re.compile(r"campaigns\.tasks\.(\w+)")

    def __init__(self, url: str):
        self.url, self.pushes, self._stop = url, Counter(), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                with redis.Redis.from_url(self.url).monitor() as mon:
                    for cmd in mon.listen():
                        if self._stop.is_set():
                            return
                        text = cmd.get("command", "")
                        if text.startswith(("LPUSH", "RPUSH")):
                            found = self.TASK.search(text)
                            self.pushes[found.group(1) if found else "other"] += 1
            except (redis.ConnectionError, OSError):
                time.sleep(0.2)  # Redis is down (a fault): count again when it is back

    def counts(self) -> Counter:
        return Counter(self.pushes)

    def stop(self):
        self._stop.set()


class BrokerCounter(_Served):
    """The broker's pushes by task (``pushes``), counted by a process of its own (see _Remote)."""

    def __init__(self, url: str):
        self.url = url
        super().__init__(_Monitor, url)

    pushes = property(_Served._counts)


class Stack:
    def __init__(
        self, *, web_workers: int, sweep_interval: int, private_pg: bool, log=print, nice: int = 10, nice_by_kind=None
    ):
        self.tmp = Path(tempfile.mkdtemp(prefix="kb-load-"))
        self.log, self.web_workers, self.private_pg = log, web_workers, private_pg
        self.web_threads = 4  # per web worker, as deploy/Procfile runs them (WEB_THREADS); 1: sync workers
        # Workers and beat at a lower CPU priority, as deploy/Procfile runs them (0: as before); their
        # sessions too (see deploy/lowpriority: nice alone does not rank one session against another).
        self.nice = [str(ROOT / "deploy" / "lowpriority"), str(nice)] if nice else []
        # A queue's workers at a niceness of their own (e.g. {"adjudication": 5}), as deploy/Procfile may run them.
        self.nice_by_kind = dict(nice_by_kind or {})
        self.procs: dict[str, subprocess.Popen] = {}
        self.workers: list[subprocess.Popen] = []
        self.redis_port, self.web_port = free_port(), free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.smtp = SmtpSink()
        self.pg_port = free_port() if private_pg else 5432
        self.pg_dir = self.tmp / "pg"
        self.db = f"kb_load_{os.getpid()}"
        self.db_url = f"postgres://postgres@127.0.0.1:{self.pg_port}/{self.db}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "kriegsbrief.settings",
            "DATABASE_URL": self.db_url,
            "CELERY_BROKER_URL": self.redis_url,
            "EMAIL_URL": f"smtp://127.0.0.1:{self.smtp.port}",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": f"http://127.0.0.1:{self.web_port}",
            "SECURE_SSL_REDIRECT": "false",
            "KRIEGSBRIEF_VAR_DIR": str(self.tmp / "var"),
            "SWEEP_INTERVAL_SECONDS": str(sweep_interval),
            "API_LOGIN_RATE": "100000/minute",
            "PYTHONPATH": str(ROOT),
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)

    # --- processes -----------------------------------------------------------------
    def _spawn(self, name: str, args: list[str], env=None) -> subprocess.Popen:
        out = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115  (the child writes to it for its whole life)
        # A session of its own: a fault or the end stops the whole process group, and only it.
        return subprocess.Popen(
            args, cwd=ROOT, env=env or self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )

    @staticmethod
    def _kill(proc: subprocess.Popen, sig=signal.SIGTERM, wait: float = 15) -> None:
        if proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)
            proc.wait(wait)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(5)

    def start_redis(self):
        self.procs["redis"] = self._spawn(
            "redis",
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.tmp),
                "--appendonly",
                "yes",
                "--save",
                "",
                "--maxmemory-policy",
                "noeviction",
            ],
        )
        wait_for(lambda: redis.Redis.from_url(self.redis_url).ping(), 15, "redis")

    def cpu_seconds(self, proc: subprocess.Popen) -> float:
        """CPU seconds used so far by the processes of ``proc``'s session (gunicorn and its workers,
        a worker and its pool): what the machine's other load does not change."""
        ticks = 0
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            if int(fields[3]) == proc.pid:  # the session's process group
                ticks += int(fields[11]) + int(fields[12])  # utime + stime
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop_redis(self):
        self._kill(self.procs["redis"])

    def _pg_ctl(self, *args: str) -> None:
        opts = f"-p {self.pg_port} -k {self.pg_dir} -c listen_addresses=127.0.0.1 -c fsync=on"
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(self.pg_dir / "data"),
                "-l",
                str(self.pg_dir / "log"),
                "-o",
                opts,
                "-w",
                *args,
            ],
            check=True,
            capture_output=True,
        )

    def start_postgres(self):
        if self.private_pg:
            self.pg_dir.mkdir()
            shutil.chown(self.tmp, "postgres")
            shutil.chown(self.pg_dir, "postgres")
            subprocess.run(
                [
                    "runuser",
                    "-u",
                    "postgres",
                    "--",
                    str(PG_BIN / "initdb"),
                    "-D",
                    str(self.pg_dir / "data"),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                ],
                check=True,
                capture_output=True,
            )
            self._pg_ctl("start")
        with psycopg.connect(self.db_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db}"')
            conn.execute(f'CREATE DATABASE "{self.db}"')
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def restart_postgres(self):
        self._pg_ctl("restart", "-m", "fast")

    def start_web(self):
        self.procs["web"] = self._spawn(
            "web",
            [
                str(BIN / "gunicorn"),
                "kriegsbrief.wsgi",
                "--bind",
                f"127.0.0.1:{self.web_port}",
                "--workers",
                str(self.web_workers),
                *(["--worker-class", "gthread", "--threads", str(self.web_threads)] if self.web_threads > 1 else []),
            ],
        )
        import requests

        wait_for(
            lambda: requests.get(f"http://127.0.0.1:{self.web_port}/healthz", timeout=2).status_code in (200, 503),
            60,
            "gunicorn",
        )

    def start_workers(self, count: int, others=("mail", "render", "maintenance"), queue: str = "adjudication"):
        """``count`` adjudication workers, and one worker each for the mail, render and maintenance
        queues (queues by kind, as deploy/Procfile runs them: a frozen SMTP server holds only the mail
        one, which runs threads as there; the render one draws the maps ahead of the mail).
        ``queue``: what the adjudication workers consume at first (another to hold them back)."""
        for proc in self.workers:
            self._kill(proc)
        self.queues = [queue] * count + list(others)
        self.workers = [self._spawn(f"worker{i}", self._worker_args(i)) for i in range(len(self.queues))]

    def worker_name(self, i: int) -> str:
        return f"bench{i}-{self.queues[i]}@{socket.gethostname()}"

    def _nice_for(self, queue: str) -> list[str]:
        if queue in self.nice_by_kind:
            return [str(ROOT / "deploy" / "lowpriority"), str(self.nice_by_kind[queue])]
        return self.nice

    def _worker_args(self, i: int) -> list[str]:
        return [
            *self._nice_for(self.queues[i]),
            str(BIN / "celery"),
            "-A",
            "kriegsbrief",
            "worker",
            "--loglevel=info",
            *POOLS.get(self.queues[i], ["--concurrency=1"]),
            "-Q",
            self.queues[i],
            "-n",
            self.worker_name(i),
            "--without-gossip",
            "--without-mingle",
        ]

    def kill_worker(self, i: int = 0) -> None:
        """SIGKILL a worker and its pool, as the OOM killer or a lost host would."""
        self._kill(self.workers[i], signal.SIGKILL)

    def restart_worker(self, i: int = 0) -> None:
        self.workers[i] = self._spawn(f"worker{i}", self._worker_args(i))

    def start_beat(self):
        self.procs["beat"] = self._spawn(
            "beat",
            [
                *self.nice,
                str(BIN / "celery"),
                "-A",
                "kriegsbrief",
                "beat",
                "--loglevel=info",
                "--schedule",
                str(self.tmp / "beat-schedule"),
            ],
        )

    def manage(self, *args: str) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=600
        )
        if out.returncode:
            raise RuntimeError(out.stderr[-3000:])
        return out.stdout

    def stop(self, keep_db: bool = False):
        for proc in [*self.workers, *self.procs.values()]:
            self._kill(proc)
        self.smtp.stop()
        try:
            if self.private_pg:
                self._pg_ctl("stop", "-m", "fast")
            elif not keep_db:
                with psycopg.connect(self.db_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')
        finally:
            if not keep_db:
                shutil.rmtree(self.tmp, ignore_errors=True)
