"""A real Dovecot IMAP server on loopback, configured in a temporary directory.

Needs Debian's dovecot-imapd. One user ``kb`` with a plain password; plain
authentication is allowed because it only listens on 127.0.0.1.
"""

from __future__ import annotations

import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
USER, PASSWORD = "kb", "imap-secret"

CONFIG = """\
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
first_valid_uid = {uid}
default_login_user = dovenull
default_internal_user = dovecot
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0666
  }}
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
"""


def available() -> bool:
    return Path(DOVECOT).exists()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Dovecot:
    def __init__(self, root: Path):
        self.root = root
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> Dovecot:
        owner = pwd.getpwnam("dovecot")
        os.chmod(self.root, 0o755)
        for sub in ("run", "state", "mail", "home"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        for sub in ("mail", "home"):
            os.chown(self.root / sub, owner.pw_uid, owner.pw_gid)
        (self.root / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
        conf = self.root / "dovecot.conf"
        conf.write_text(CONFIG.format(root=self.root, port=self.port, uid=owner.pw_uid, gid=owner.pw_gid))
        self.proc = subprocess.Popen([DOVECOT, "-F", "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dovecot exited: {self.proc.stdout.read().decode()} {self.log()}")
            if self._can_log_in():
                return self
            time.sleep(0.1)
        raise RuntimeError(f"dovecot did not listen on {self.port}: {self.log()}")

    def _can_log_in(self) -> bool:
        """Listening is not enough: the auth process comes up a moment later."""
        try:
            conn = imaplib.IMAP4("127.0.0.1", self.port, timeout=5)
        except (imaplib.IMAP4.error, OSError):
            return False
        try:
            conn.login(USER, PASSWORD)
            return True
        except (imaplib.IMAP4.error, OSError):
            return False
        finally:
            try:
                conn.logout()
            except (imaplib.IMAP4.error, OSError):
                pass

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def url(self) -> str:
        return f"imap://{USER}:{PASSWORD}@127.0.0.1:{self.port}/INBOX"
