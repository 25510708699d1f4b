"""What the sender wrote themselves: quoted text, signatures and forwarded
originals are cut away so that they are never read as orders.

Rules, in order (each is what a real client sends):
- a line starting with ``>`` is quoted (any client, and our HTML converter);
- an original-message marker ends the new text: ``-----Original Message-----``,
  ``-----Исходное сообщение-----``, Thunderbird's ``-------- Original Message --------``,
  forwarded-message markers;
- a line ``-- `` (RFC 3676) starts the signature;
- an attribution ends the new text: "On … wrote:", "… пишет:", "… написал(а):",
  "Am … schrieb:", Gmail/Yandex/Mail.ru's "<date>, Name <addr>:", and
  Outlook's "From:/Sent:" (or "От:/Отправлено:") block. What follows it is the
  quoted original, with or without ">" marks. Only when ">" lines follow it
  (a bottom-posted or interleaved reply) is the attribution skipped and the
  reading goes on below the quote;
- mail-parser-reply then removes what it knows as signatures
  ("Sent from my iPhone", "Regards", disclaimers).

mail-parser-reply finds the English, German and French attributions and
Outlook blocks (``HEADER_REGEX``), and we use it for them. It is extended here
because it has no Russian at all (``languages=["ru"]`` is silently dropped),
does not know the verb-less "…, Name <addr>:" form of Gmail in Russian, Yandex
and Mail.ru, and splits a message into replies at each attribution, which
loses the new text of a bottom-posted reply (it sits below the quote).
"""

from __future__ import annotations

import re
from typing import ClassVar

from mailparser_reply import EmailReplyParser
from mailparser_reply.parser import EmailMessage

ORIGINAL_MARKERS = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht|"
    r"исходное сообщение|пересылаемое сообщение|перенаправленное сообщение)\s*-{2,}"
    r"|begin forwarded message:|начало переадресованного сообщения:|_{20,})\s*$",
    re.IGNORECASE,
)
OUTLOOK_HEADER = re.compile(r"^\s*\**(from|von|от):\**\s", re.IGNORECASE)
OUTLOOK_NEXT = re.compile(r"^\s*\**(sent|date|gesendet|отправлено|дата|to|an|кому|subject|тема):\**\s", re.IGNORECASE)
# An attribution line, or the last line of one wrapped over two: the verb, or (Gmail in Russian,
# Yandex, Mail.ru) an address in angle brackets, then a colon at the end.
ATTRIBUTION = re.compile(
    r"((wrote|writes|schrieb|a écrit|написал\(а\)|написала?|пишет)\s*:|<[^<>\s]+@[^<>\s]+>\s*:)\s*$", re.IGNORECASE
)
ATTRIBUTION_START = re.compile(r"^\s*(on|am|le)\s", re.IGNORECASE)  # "On …" wrapped before "… wrote:"
SIGNATURE = re.compile(r"^--\s?$")
_LANGUAGES = EmailReplyParser(languages=["en", "de", "fr"]).languages


class _Message(EmailMessage):
    """mail-parser-reply's message, its three patterns built once: the library builds them again
    for every message it reads (some thirty joins of its language tables, about a third of the
    time ``new_text`` took on a short reply), though they depend only on the fields in ``_key``."""

    _built: ClassVar[dict[tuple, re.Pattern]] = {}

    def _kept(self, prop: property) -> re.Pattern:
        key = (prop, tuple(self.languages), self.default_language, self.keep_hyphen_lists)
        found = self._built.get(key)
        if found is None:
            found = self._built[key] = prop.fget(self)  # type: ignore[misc]
        return found

    @property
    def HEADER_REGEX(self) -> re.Pattern:  # the library's names
        return self._kept(EmailMessage.HEADER_REGEX)

    @property
    def SIGNATURE_REGEX(self) -> re.Pattern:
        return self._kept(EmailMessage.SIGNATURE_REGEX)

    @property
    def DISCLAIMERS_REGEX(self) -> re.Pattern:
        return self._kept(EmailMessage.DISCLAIMERS_REGEX)


def read_replies(text: str) -> EmailMessage:
    """``EmailReplyParser(languages=["en", "de", "fr"]).read(text)``: the same message read."""
    return _Message(text=text, languages=list(_LANGUAGES)).read()


_HEADERS = _Message(text="", languages=list(_LANGUAGES)).HEADER_REGEX


def new_text(text: str) -> str:
    """The part of a message body its sender wrote; lines keep their order."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    headers = _library_headers(lines)
    kept, i = [], 0
    while i < len(lines):
        line = lines[i]
        if ORIGINAL_MARKERS.match(line) or SIGNATURE.match(line):
            break
        if line.lstrip().startswith(">"):
            i += 1
            continue
        end = headers.get(i, _attribution_end(lines, i))
        if end is not None:
            if kept and end == i and ATTRIBUTION_START.match(kept[-1]) and ATTRIBUTION.search(line):
                kept.pop()  # "On …" wrapped onto the line above "… wrote:"
            if not _marked_quote_follows(lines, end + 1):
                break  # the original follows unmarked: nothing below is the sender's
            i = end + 1
            continue
        kept.append(line)
        i += 1
    return _strip_signature("\n".join(kept)).strip("\n")


FORWARD_MARKERS = re.compile(
    r"^\s*(-{2,}\s*(forwarded message|weitergeleitete nachricht|пересылаемое сообщение|перенаправленное сообщение)"
    r"\s*-{2,}|begin forwarded message:|начало переадресованного сообщения:)\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def forwarded(text: str) -> bool:
    """Whether the body carries a forwarded message (Gmail's, Apple Mail's, Yandex's and Mail.ru's
    markers): it is never read, and the sender is told so."""
    return bool(FORWARD_MARKERS.search(text or ""))


def _library_headers(lines: list[str]) -> dict[int, int]:
    """mail-parser-reply's attributions and Outlook blocks: first line -> last line."""
    text = "\n".join(line.strip() for line in lines)  # as the library normalises it; same line count
    found = {}
    for m in _HEADERS.finditer(text):
        start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip("\n")))
        first = text.count("\n", 0, start)
        found.setdefault(first, text.count("\n", 0, m.end() if m.end() > start else start))
    return found


def _attribution_end(lines: list[str], i: int) -> int | None:
    """The last line of an attribution or Outlook header block starting at line ``i``, or None."""
    if ATTRIBUTION.search(lines[i]):
        return i
    if OUTLOOK_HEADER.match(lines[i]) and any(OUTLOOK_NEXT.match(line) for line in lines[i + 1 : i + 3]):
        end = i + 1
        while end + 1 < len(lines) and OUTLOOK_NEXT.match(lines[end + 1]):
            end += 1
        return end
    return None


def _marked_quote_follows(lines: list[str], i: int) -> bool:
    """Whether the first non-blank line from ``i`` on is a '>' quote."""
    rest = (line.strip() for line in lines[i:])
    return next((line for line in rest if line), "").startswith(">")


def _strip_signature(text: str) -> str:
    if not text.strip():
        return text
    try:
        replies = read_replies(text).replies
    except Exception:  # a heuristic library must never cost us a message
        return text
    return replies[0].body if replies and replies[0].body.strip() else text
