"""The IMAP poller: fetch new messages in batches, store each batch, mark it seen, process it.

Run by Celery beat (``campaigns.mailin.tasks.poll_imap``) every
MAIL_IMAP_INTERVAL_SECONDS. New messages are those above the mailbox's cursor
(``ImapCursor``: the highest UID stored, under the mailbox's UIDVALIDITY), not
the unseen ones: a message an operator or a mail client opened in the mailbox
is still taken in. They are fetched FETCH_BATCH at a time with BODY.PEEK; after
a batch is stored (``ingest.store_many``: one commit, one row per seat address
a message went to, since a mailbox keeps one copy for all of them) the cursor moves past it
and it is flagged \\Seen, for people reading the mailbox. A crash in between
means the messages are fetched again next time and deduplicated by Message-ID;
so does a new UIDVALIDITY (the server renumbered the mailbox: read it all
again). The batch is then processed in one transaction (``ingest.process_many``);
a crash there leaves the stored rows for ``ingest.retry_pending``. Mail is never
deleted from the server (the store is ours, the mailbox the operator's). Only the
receiving server's Authentication-Results (MAIL_IMAP_AUTHSERV_ID) are read (screen.py).
"""

from __future__ import annotations

import imaplib
import logging
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from . import ingest
from .models import ImapCursor

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

    @property
    def key(self) -> str:
        """The mailbox's name for its cursor (never the password)."""
        return f"{self.user}@{self.host}:{self.port}/{self.mailbox}"

    @classmethod
    def from_url(cls, url: str) -> ImapConfig:
        """imap://user:pw@host:143/INBOX or imaps://…; user and password percent-encoded."""
        parts = urlsplit(url)
        if parts.scheme not in ("imap", "imaps") or not parts.hostname or not parts.username:
            raise ValueError("MAIL_IMAP_URL must look like imap://user:password@host:143/INBOX (or imaps://)")
        ssl = parts.scheme == "imaps"
        return cls(
            host=parts.hostname,
            port=parts.port or (993 if ssl else 143),
            user=unquote(parts.username),
            password=unquote(parts.password or ""),
            mailbox=unquote(parts.path.lstrip("/")) or "INBOX",
            ssl=ssl,
        )


def _connect(cfg: ImapConfig) -> imaplib.IMAP4:
    conn = (
        imaplib.IMAP4_SSL(cfg.host, cfg.port, timeout=30) if cfg.ssl else imaplib.IMAP4(cfg.host, cfg.port, timeout=30)
    )
    conn.login(cfg.user, cfg.password)
    typ, _ = conn.select(_quote(cfg.mailbox))
    if typ != "OK":
        raise imaplib.IMAP4.error(f"cannot select mailbox {cfg.mailbox!r}")
    return conn


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def poll(cfg: ImapConfig) -> dict:
    """One pass over the messages above the cursor, FETCH_BATCH at a time; returns counts."""
    stored = seen = 0
    conn = _connect(cfg)
    try:
        cursor = _cursor(cfg, _uidvalidity(conn, cfg.mailbox))
        typ, data = conn.uid("SEARCH", None, f"UID {cursor.last_uid + 1}:*")
        # "n:*" names the highest message even when its UID is below n: keep only the new ones
        uids = sorted(
            u for u in (data[0].split() if typ == "OK" and data and data[0] else []) if int(u) > cursor.last_uid
        )
        for start in range(0, len(uids), FETCH_BATCH):
            batch = uids[start : start + FETCH_BATCH]
            fetched = _fetch(conn, batch)
            if fetched:
                rows = ingest.store_many([raw for _, raw in fetched], via="imap")
            ImapCursor.objects.filter(pk=cursor.pk).update(last_uid=int(batch[-1]))  # only after the store committed
            if not fetched:
                continue
            conn.uid("STORE", b",".join(uid for uid, _ in fetched), "+FLAGS", "(\\Seen)")
            seen += len(fetched)
            new = [row.pk for row, created in rows if created]
            stored += len(new)
            _process(new)
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    log.info("imap poll: %s new of %s fetched", stored, seen)
    return {"fetched": seen, "new": stored}


def _uidvalidity(conn: imaplib.IMAP4, mailbox: str) -> int:
    """The selected mailbox's UIDVALIDITY: from SELECT's answer, else asked with STATUS."""
    typ, data = conn.response("UIDVALIDITY")
    if not data or data[0] is None:
        typ, data = conn.status(_quote(mailbox), "(UIDVALIDITY)")
        m = re.search(rb"UIDVALIDITY (\d+)", data[0] or b"") if typ == "OK" else None
        if not m:
            raise imaplib.IMAP4.error("the server gives no UIDVALIDITY for the mailbox")
        return int(m.group(1))
    return int(data[0])


def _cursor(cfg: ImapConfig, uidvalidity: int) -> ImapCursor:
    cursor, _ = ImapCursor.objects.get_or_create(mailbox=cfg.key, defaults={"uidvalidity": uidvalidity})
    if cursor.uidvalidity != uidvalidity:
        # The server renumbered the mailbox: read it all again (what was stored is deduplicated).
        log.warning("imap: %s has a new UIDVALIDITY; reading it from the start", cfg.key)
        cursor.uidvalidity, cursor.last_uid = uidvalidity, 0
        cursor.save(update_fields=["uidvalidity", "last_uid", "updated_at"])
    return cursor


def _process(pks: list[int]) -> None:
    try:
        ingest.process_many(pks)
    except Exception as exc:  # stored already: the retry task picks them up; poll the rest
        log.error("inbound messages %s stored, processing deferred (%s)", pks, type(exc).__name__)


def _fetch(conn: imaplib.IMAP4, uids: list[bytes]) -> list[tuple[bytes, bytes]]:
    """(uid, raw message) for each of ``uids`` the server returned, in one FETCH."""
    typ, data = conn.uid("FETCH", b",".join(uids), "(UID BODY.PEEK[])")
    if typ != "OK":
        return []
    out = []
    for item in data:
        if isinstance(item, tuple):
            uid = re.search(rb"\bUID (\d+)", item[0])
            if uid and re.search(rb"BODY\[\]", item[0]):
                out.append((uid.group(1), item[1]))
    return out
