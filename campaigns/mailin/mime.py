"""Raw MIME bytes to what the rest of mail-in needs, never raising on bad input.

Parsing uses the stdlib ``email`` package into ``AnymailInboundMessage`` (the
class the webhook hands us) with the ``compat32`` policy: header values are
read raw and decoded here anyway (the modern policy's header objects can raise
on malformed input), and building those objects made ``policy.default``
parsing ten times slower (0.4 ms of a ~6 ms message in bench/mail_ingest.py).
Filenames are RFC 2047-decoded here, as the modern policy would. The body is the
plain-text part, or the HTML part turned into text; ``.txt`` attachments are
kept apart. A text part or attachment that names no charset (as Outlook
attaches a .txt file) is read as UTF-8 when it is that, else its charset is
found with charset-normalizer among the code pages our players write in
(``guess_text``), Cyrillic ones told apart by how Russian the text reads. Parts are counted and capped: nothing here ever opens an archive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import compat32
from email.utils import getaddresses
from functools import lru_cache

import charset_normalizer
from anymail.inbound import AnymailInboundMessage

from rules.core.i18n import _

from .htmltext import html_to_text

MSGID_RE = re.compile(r"<[^<>\s\x00-\x1f]{1,250}>")
TEXT_ATTACHMENT_MAX = 64 * 1024


class MimeError(Exception):
    """The message cannot be read; the text says why, for the sender."""


@dataclass
class Attachment:
    filename: str
    content_type: str
    size: int


@dataclass
class Parsed:
    headers: list[tuple[str, str]]  # raw (name, value) pairs, in order
    body: str = ""
    text_attachments: list[tuple[str, str]] = field(default_factory=list)  # (filename, text)
    other_attachments: list[Attachment] = field(default_factory=list)
    parts: int = 0
    _decoded: dict = field(default_factory=dict, repr=False, compare=False)  # name -> values, decoded once

    def all(self, name: str) -> list[str]:
        name = name.lower()
        if name not in self._decoded:
            self._decoded[name] = [decode(v) for k, v in self.headers if k.lower() == name]
        return list(self._decoded[name])

    def first(self, name: str) -> str:
        values = self.all(name)
        return values[0] if values else ""


def decode(value: str) -> str:
    """A header value with RFC 2047 words decoded; never raises."""
    value = str(value)
    if "=?" in value:  # else there is no encoded word, and decoding gives the text back as it is
        try:
            value = str(make_header(decode_header(value)))
        except Exception:  # malformed encoded words: keep the raw text
            pass
    return " ".join(value.split())


def one_line(text: str, limit: int = 150) -> str:
    """Text safe to echo in a header: no control characters, one line, bounded."""
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(text.split())[:limit]


def message_id(raw: bytes) -> str:
    """The Message-ID from the raw header block, '' if missing or malformed."""
    return message_id_of(BytesHeaderParser(policy=compat32).parsebytes(raw[: 256 * 1024]))


def message_id_of(headers: Message) -> str:
    """The Message-ID of a parsed header block, '' if missing or malformed."""
    value = headers.get("Message-ID", "") or ""
    m = MSGID_RE.search(str(value))
    return m.group(0) if m else ""


def addresses(values: list[str]) -> list[str]:
    """Bare addresses from address headers, lower-cased domain; junk dropped."""
    return list(_addresses(tuple(values)))


@lru_cache(maxsize=512)  # each message's From is read by several checks
def _addresses(values: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for _name, addr in getaddresses(list(values)):
        if "@" in addr and not any(ch.isspace() or not ch.isprintable() for ch in addr):
            local, _at, domain = addr.rpartition("@")
            out.append(f"{local}@{domain.lower()}")
    return tuple(out)


def parse(raw: bytes, *, max_parts: int) -> Parsed:
    try:
        msg = BytesParser(AnymailInboundMessage, policy=compat32).parsebytes(raw)
        out = Parsed(headers=[(k, str(v)) for k, v in msg.raw_items()])
        plain, html = [], []
        _walk(msg, out, plain, html, max_parts)
    except RecursionError:  # the stdlib parser recurses once per nesting level
        raise MimeError(
            "the message's MIME parts are nested too deeply to read; send your orders as plain text"
        ) from None
    plain = [text for text in plain if text.strip()]
    if plain:
        out.body = plain[0]
    elif html:  # HTML only, or an empty plain part beside the HTML one
        out.body = html_to_text(html[0])
    return out


def _walk(part: Message, out: Parsed, plain: list, html: list, max_parts: int) -> None:
    out.parts += 1
    if out.parts > max_parts:
        raise MimeError(
            _("the message has more than {count} MIME parts; send your orders as plain text", count=max_parts)
        )
    if part.get_content_type() == "message/rfc822" and out.parts > 1:
        # A forwarded message is someone else's text: never read as orders.
        out.other_attachments.append(Attachment("forwarded message", "message/rfc822", 0))
        return
    if part.get_content_maintype() == "multipart" and not part.is_multipart():
        # The parser found no boundary line (a relay rewrote it, a client cut the message): the
        # parts cannot be told apart, so nothing in it can be read, and saying "no orders" would lie.
        boundary = one_line(part.get_boundary() or "", 70)
        raise MimeError(
            "your message could not be read: it says it is in MIME parts, but "
            + (f'its boundary "{boundary}" never appears in it' if boundary else "it names no boundary")
            + ", so its parts cannot be told apart. Nothing in it was applied; "
            "send it again (as plain text, if your mail program allows)"
        )
    if part.is_multipart():
        for sub in part.iter_parts() if hasattr(part, "iter_parts") else part.get_payload():
            _walk(sub, out, plain, html, max_parts)
        return
    _sort_part(part, out, plain, html)


def _sort_part(part: Message, out: Parsed, plain: list, html: list) -> None:
    ctype = part.get_content_type()
    filename = _filename(part)
    disposition = (part.get_content_disposition() or "").lower()
    if disposition == "attachment" or (filename and disposition != "inline"):
        size = len(part.get_payload(decode=True) or b"")
        if ctype == "text/plain" and filename.lower().endswith(".txt") and size <= TEXT_ATTACHMENT_MAX:
            out.text_attachments.append((filename, _text(part)))
        else:
            out.other_attachments.append(Attachment(one_line(filename or "(no name)", 80), ctype, size))
    elif ctype == "text/plain":
        plain.append(_text(part))
    elif ctype == "text/html":
        html.append(_text(part))


def _filename(part: Message) -> str:
    try:
        return decode(part.get_filename() or "")  # "=?utf-8?b?...?=" as a client may send it
    except Exception:
        return ""


def _text(part: Message) -> str:
    """A text part decoded from its transfer encoding and charset, whatever they claim."""
    payload = part.get_payload(decode=True) or b""
    charset = None
    try:
        charset = part.get_content_charset()
    except Exception:
        pass
    for cs in (charset, "utf-8") if charset else ("utf-8",):
        try:
            return payload.decode(cs)
        except (LookupError, UnicodeDecodeError):
            continue
    return guess_text(payload)


# The single-byte code pages a text without a (usable) charset label is looked for in: Western
# and Cyrillic, as our players' clients write them (UTF-8 is tried before).
GUESSED_CHARSETS = ("cp1252", "cp1251", "koi8_r", "cp866", "iso8859_5", "mac_cyrillic")
CYRILLIC_CHARSETS = ("cp1251", "koi8_r", "cp866", "iso8859_5", "mac_cyrillic")
_RU_VOWELS = frozenset("аеёиоуыэюя")
_RU_COMMON = frozenset("оеаинтсрвлкмдпу")  # the most frequent letters of Russian text
# A word of two or more letters none of which is ASCII: usual in Russian, rare in Western text.
_NON_ASCII_WORD = re.compile(r"(?<![A-Za-z])[^\x00-\x7f\W\d_]{2,}(?![A-Za-z])")


def guess_text(payload: bytes) -> str:
    """Bytes of unknown charset (not UTF-8) as text: charset-normalizer's best reading among
    GUESSED_CHARSETS; when that is Cyrillic, or could be (words of non-ASCII letters only), the
    Cyrillic code page whose reading looks most like Russian (``_russian``): on a few words of
    orders the detector alone mistakes KOI8-R for windows-1251 or for a Western code page."""
    best = charset_normalizer.from_bytes(payload, cp_isolation=list(GUESSED_CHARSETS)).best()
    text = str(best) if best is not None else payload.decode("cp1252", errors="replace")
    if not any("\u0400" <= ch <= "\u04ff" for ch in text) and not _NON_ASCII_WORD.search(text):
        return text
    readings = []
    for rank, cs in enumerate(CYRILLIC_CHARSETS):
        try:
            decoded = payload.decode(cs)
        except UnicodeDecodeError:
            continue
        readings.append((_russian(decoded), -rank, decoded))
    if not readings:
        return text
    score, _rank, decoded = max(readings)
    return decoded if score > _russian(text) else text


def _russian(text: str) -> float:
    """How much ``text`` reads like Russian: its non-ASCII characters Cyrillic letters, those
    mostly the common ones, about 43% vowels, and no lower-case letter followed by a capital
    inside a word (a wrong code page swaps the case of KOI8-R's letters)."""
    high = [ch for ch in text if ord(ch) > 127]
    letters = [ch.lower() for ch in high if "\u0400" <= ch <= "\u04ff"]
    if not letters:
        return -1.0
    vowels = sum(ch in _RU_VOWELS for ch in letters) / len(letters)
    common = sum(ch in _RU_COMMON for ch in letters) / len(letters)
    odd = sum(
        1
        for a, b in zip(text, text[1:], strict=False)
        if a.islower() and b.isupper() and "\u0400" <= a <= "\u04ff" and "\u0400" <= b <= "\u04ff"
    )
    return len(letters) / len(high) + common + 1 - 2 * abs(vowels - 0.43) - odd / len(letters)
