"""What the sender wrote themselves: quoted text, signatures and forwarded
originals are cut away so that they are never read as orders.

Rules, in order (each is what a real client sends):
- a line starting with ``>`` is quoted (any client, and our HTML converter);
- an original-message marker ends the new text: Outlook's
  ``-----Original Message-----`` and ``From:``/``Sent:`` block, Thunderbird's
  ``-------- Original Message --------``, forwarded-message markers;
- a line ``-- `` (RFC 3676) starts the signature;
- attribution lines ("On … wrote:", "… schrieb:", "… написал(а):") are dropped;
- mail-parser-reply then removes what it knows as signatures
  ("Sent from my iPhone", disclaimers) in several languages.
Bottom-posted replies keep the new text below the quote, so quoted lines are
dropped rather than cutting everything after them.
"""
from __future__ import annotations

import re

from mailparser_reply import EmailReplyParser

ORIGINAL_MARKERS = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht|"
    r"исходное сообщение|пересылаемое сообщение)\s*-{2,}"
    r"|begin forwarded message:|_{20,})\s*$",
    re.IGNORECASE,
)
OUTLOOK_HEADER = re.compile(r"^\s*\**(from|von|от):\**\s", re.IGNORECASE)
OUTLOOK_NEXT = re.compile(r"^\s*\**(sent|date|gesendet|отправлено|to|an):\**\s", re.IGNORECASE)
ATTRIBUTION = re.compile(
    r"(wrote|writes|schrieb|a écrit|написал\(а\)|написала?|пишет)\s*:\s*$", re.IGNORECASE)
SIGNATURE = re.compile(r"^--\s?$")
BLOCK_START = re.compile(r"^\s*orders\s*:?\s*$", re.IGNORECASE)
BLOCK_END = re.compile(r"^\s*end(\s+orders)?\s*$", re.IGNORECASE)
_REPLY_PARSER = EmailReplyParser(languages=["en", "de", "fr", "ru"])


def new_text(text: str) -> str:
    """The part of a message body its sender wrote; lines keep their order."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept = []
    for i, line in enumerate(lines):
        if ORIGINAL_MARKERS.match(line) or SIGNATURE.match(line) or _outlook_header(lines, i):
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line)
    kept = [line for line in kept if not ATTRIBUTION.search(line)]
    return _strip_signature("\n".join(kept)).strip("\n")


def _outlook_header(lines: list[str], i: int) -> bool:
    """'From: …' followed within two lines by 'Sent:'/'To:': Outlook's quoted original."""
    if not OUTLOOK_HEADER.match(lines[i]):
        return False
    return any(OUTLOOK_NEXT.match(line) for line in lines[i + 1:i + 3])


def _strip_signature(text: str) -> str:
    if not text.strip():
        return text
    try:
        replies = _REPLY_PARSER.read(text).replies
    except Exception:  # a heuristic library must never cost us a message
        return text
    return replies[0].body if replies and replies[0].body.strip() else text


def orders_block(text: str) -> tuple[str, str, str] | None:
    """(before, block, after) when the text holds an explicit ORDERS … END block."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if BLOCK_START.match(line)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if BLOCK_END.match(lines[i])), len(lines))
    return "\n".join(lines[:start]), "\n".join(lines[start + 1:end]), "\n".join(lines[end + 1:])
