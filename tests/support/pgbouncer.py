"""A real PgBouncer (Debian's pgbouncer) in transaction mode on a loopback port, in front of the
test PostgreSQL, and a real gunicorn serving the project through it (issue 32)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not listen on {port} in {timeout:g} s")


class PgBouncer:
    """Transaction pooling with a small pool, so that one client's transactions land on different
    server connections (as under load): what a session-bound feature (a prepared statement, a
    server-side cursor) cannot survive."""

    def __init__(self, pool_size: int = 3):
        self.dir = Path(tempfile.mkdtemp(prefix="kb-pgbouncer-"))
        self.dir.chmod(0o777)  # PgBouncer drops root for the postgres user
        self.port = free_port()
        (self.dir / "users.txt").write_text('"postgres" ""\n')
        (self.dir / "pgbouncer.ini").write_text(
            "[databases]\n* = host=127.0.0.1 port=5432\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {self.dir / 'users.txt'}\n"
            f"pool_mode = transaction\ndefault_pool_size = {pool_size}\nmax_client_conn = 200\n"
            f"logfile = {self.dir / 'pgbouncer.log'}\n"
        )
        for name in ("users.txt", "pgbouncer.ini"):
            (self.dir / name).chmod(0o644)
        user = ["-u", "postgres"] if os.geteuid() == 0 else []
        self.proc = subprocess.Popen([PGBOUNCER, *user, str(self.dir / "pgbouncer.ini")], stderr=subprocess.PIPE)
        wait_port(self.port, self.proc, "pgbouncer")

    def url(self, dbname: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Gunicorn:
    """The web as deployed (deploy/Procfile: gthread workers), with the given environment."""

    def __init__(self, env: dict[str, str], workers: int = 2, threads: int = 4):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "kriegsbrief.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(threads),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port, self.proc, "gunicorn")
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def call(url: str, method: str = "GET", body: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
