"""The IMAP poller: fetch unseen messages, store each, then mark it seen.

Run by Celery beat (``campaigns.mailin.tasks.poll_imap``) every
MAIL_IMAP_INTERVAL_SECONDS. Bodies are fetched with BODY.PEEK so that a
message is flagged \\Seen only after it is stored; a crash in between means
the message is fetched again next time and deduplicated by Message-ID. Mail
is never deleted from the server (the store is ours, the mailbox the
operator's).
"""
from __future__ import annotations

import imaplib
import logging
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from . import ingest

log = logging.getLogger(__name__)
FETCH_BATCH = 50


@dataclass(frozen=True)
class ImapConfig:
    host: str
    port: int
    user: str
    password: str
    mailbox: str = "INBOX"
    ssl: bool = False

    @classmethod
    def from_url(cls, url: str) -> "ImapConfig":
        """imap://user:pw@host:143/INBOX or imaps://…; user and password percent-encoded."""
        parts = urlsplit(url)
        if parts.scheme not in ("imap", "imaps") or not parts.hostname or not parts.username:
            raise ValueError("MAIL_IMAP_URL must look like imap://user:password@host:143/INBOX (or imaps://)")
        ssl = parts.scheme == "imaps"
        return cls(host=parts.hostname, port=parts.port or (993 if ssl else 143), user=unquote(parts.username),
                   password=unquote(parts.password or ""), mailbox=unquote(parts.path.lstrip("/")) or "INBOX", ssl=ssl)


def _connect(cfg: ImapConfig) -> imaplib.IMAP4:
    conn = imaplib.IMAP4_SSL(cfg.host, cfg.port, timeout=30) if cfg.ssl else imaplib.IMAP4(cfg.host, cfg.port, timeout=30)
    conn.login(cfg.user, cfg.password)
    typ, _ = conn.select(_quote(cfg.mailbox))
    if typ != "OK":
        raise imaplib.IMAP4.error(f"cannot select mailbox {cfg.mailbox!r}")
    return conn


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def poll(cfg: ImapConfig) -> dict:
    """One pass over the unseen messages; returns counts."""
    stored = seen = 0
    conn = _connect(cfg)
    try:
        typ, data = conn.uid("SEARCH", None, "UNSEEN")
        uids = data[0].split() if typ == "OK" and data and data[0] else []
        for uid in uids[:FETCH_BATCH]:
            raw = _fetch(conn, uid)
            if raw is None:
                continue
            row, created = ingest.store(raw, via="imap")
            stored += created
            conn.uid("STORE", uid, "+FLAGS", "(\\Seen)")  # only after the store committed
            seen += 1
            if created:
                _process(row.pk)
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    log.info("imap poll: %s new of %s fetched", stored, seen)
    return {"fetched": seen, "new": stored}


def _process(pk: int) -> None:
    try:
        ingest.process(pk)
    except Exception as exc:  # stored already: the retry task picks it up; poll the rest
        log.error("inbound message %s stored, processing deferred (%s)", pk, type(exc).__name__)


def _fetch(conn: imaplib.IMAP4, uid: bytes) -> bytes | None:
    typ, data = conn.uid("FETCH", uid, "(BODY.PEEK[])")
    if typ != "OK":
        return None
    for item in data:
        if isinstance(item, tuple) and re.search(rb"BODY\[\]", item[0]):
            return item[1]
    return None
