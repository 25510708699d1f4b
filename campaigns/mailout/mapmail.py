"""An outgoing message whose HTML part shows the map inline, and the Date in the reader's zone.

The structure (RFC 2046/2387): the map once, in the HTML text (issue 30: the map twice made the
median report ~300 kB). A message with no HTML part (the game's first mail) has it as an attachment
instead (composing.build_message); a client that shows only the plain text of a report is pointed to
the game's page, and most list the inline part as an attachment anyway:

    multipart/alternative
      text/plain
      multipart/related
        text/html            <img src="cid:MAP_CID">
        image/png            Content-ID: <MAP_CID>, inline

Headers with text in them (the Subject, the List-Id's game name) are folded as RFC 5322 and 2047
want (``Folded``): Django writes a non-ASCII subject as one long encoded word, which the generator
then put on a line of its own under an empty ``Subject:``.

The Date header is written in the seat's own time zone (its offset, e.g. +0900), not in UTC
passed off as local time: a mail client shows it either way, but a reader who looks at the
raw header sees their own clock.
"""

from __future__ import annotations

import base64
import functools
import secrets
from email import policy
from email.generator import NLCRE, BytesGenerator
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from io import BytesIO

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.core.mail.message import SafeMIMEMultipart

MAP_CID = "map@kriegsbrief"


class LineGenerator(BytesGenerator):
    """The email library's BytesGenerator, writing each part's text in one call. The stdlib splits
    a payload at every line ending and writes each line and each line ending on its own: two calls
    a line, ~4,400 for a report's two base64 maps, a quarter of the mail worker's CPU while it
    drained a backlog (py-spy). Putting the output's line ending in place of each one is the same
    text (tests/mail/outbound/test_map_mail.py compares the bytes with the stdlib's)."""

    def _write_lines(self, lines):
        if not lines:
            return
        # Where the text has no CR (base64, and nearly every text part), every line ending is a bare
        # LF, and str.replace does what the pattern does at a fraction of its cost over a map's
        # 150 kB (the pattern's sub was 7 ms of a report's 27 ms of CPU in the mail worker).
        self.write(lines.replace("\n", self._NL) if "\r" not in lines else NLCRE.sub(self._NL, lines))


def as_bytes(msg, unixfrom=False, linesep="\n") -> bytes:
    """Django's MIMEMixin.as_bytes (no From mangling, the message's own policy) by LineGenerator."""
    fp = BytesIO()
    LineGenerator(fp, mangle_from_=False).flatten(msg, unixfrom=unixfrom, linesep=linesep)
    return fp.getvalue()


class Folded:
    """A header value the generator writes as given, folded by the email package's own policy (its
    RFC 2047 encoded words only where the text needs them, the first line after the name, lines of
    at most 78 characters) rather than by the compat32 policy Django's messages carry."""

    def __init__(self, name: str, value: str):
        self.name, self.value = name, value

    def encode(self, linesep: str = "\n", maxlinelen: int | None = None, **_) -> str:
        smtp = policy.SMTP.clone(linesep=linesep)
        folded = smtp.header_factory(self.name, self.value).fold(policy=smtp)
        return folded[len(self.name) + 2 : -len(linesep)]

    def __str__(self) -> str:
        return self.value


class Verbatim:
    """An ASCII header value written on one line as it is."""

    def __init__(self, value: str):
        self.value = value

    def encode(self, linesep: str = "\n", maxlinelen: int | None = None, **_) -> str:
        return self.value

    def __str__(self) -> str:
        return self.value


class ListId:
    """A List-Id (RFC 2919): ``phrase <id>``, the game's name as the phrase (a quoted string, or
    encoded words if it is not ASCII) and the id never encoded."""

    def __init__(self, name: str, list_id: str):
        self.name, self.list_id = " ".join(name.split()), list_id

    def encode(self, linesep: str = "\n", maxlinelen: int | None = None, **_) -> str:
        header = Header(header_name="List-Id")
        if self.name:
            header.append(*((quote_phrase(self.name), "us-ascii") if self.name.isascii() else (self.name, "utf-8")))
        header.append(f"<{self.list_id}>", "us-ascii")
        return header.encode(linesep=linesep, maxlinelen=maxlinelen or 78)

    def __str__(self) -> str:
        return f"{quote_phrase(self.name)} <{self.list_id}>" if self.name else f"<{self.list_id}>"


def quote_phrase(text: str) -> str:
    """``text`` as an RFC 5322 phrase: as it is if it is all atoms, else a quoted string."""
    if text and all(c.isalnum() or c in " !#$%&'*+-/=?^_`{|}~" for c in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class MapMail(EmailMultiAlternatives):
    """``inline_map``: (filename, content, mimetype) of the map, shown in the HTML part by Content-ID.
    ``list_id``: (the game's name, the list's id) for the List-Id header."""

    def __init__(
        self,
        *args,
        inline_map: tuple[str, bytes, str] | None = None,
        list_id: tuple[str, str] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.inline_map = inline_map
        self.list_id = list_id

    def message(self):
        msg = super().message()
        # Set past Django's __setitem__ (which would encode them its own way), in the Subject's place.
        Message.replace_header(msg, "Subject", Folded("Subject", str(self.subject)))
        if self.list_id is not None:
            Message.__setitem__(msg, "List-Id", ListId(*self.list_id))
        if "List-Unsubscribe" in msg:
            # Never folded: a URI longer than a line would be broken onto the next under an empty
            # first line, and some receivers do not unfold inside <...> (RFC 2369 2). 998 is the limit.
            Message.replace_header(msg, "List-Unsubscribe", Verbatim(str(msg["List-Unsubscribe"])))
        # Each multipart's boundary is chosen here, not by the generator: it picks one by scanning the
        # whole flattened part for a line that would collide (email.generator._make_boundary), and
        # over the base64 maps that scan was ~40 % of flattening a report (py-spy of the mail worker
        # draining a backlog, bench/load.py --fault smtp-freeze). 128 random bits behind "=_", which
        # neither quoted-printable nor base64 ever writes, cannot be met by chance.
        for part in msg.walk():
            if part.is_multipart() and part.get_boundary() is None:
                part.set_boundary(f"=_kb_{secrets.token_hex(16)}")
        # What the SMTP and .eml backends call to flatten it: as_bytes above, in place of Django's.
        msg.as_bytes = functools.partial(as_bytes, msg)
        return msg

    def _create_alternatives(self, msg):
        msg = super()._create_alternatives(msg)
        if self.inline_map is None or not msg.is_multipart():
            return msg
        parts = msg.get_payload()
        for i, part in enumerate(parts):
            if part.get_content_type() == "text/html":
                related = SafeMIMEMultipart(_subtype="related", encoding=self.encoding or settings.DEFAULT_CHARSET)
                related.attach(part)
                related.attach(self._inline_part())
                parts[i] = related
        return msg

    def _create_mime_attachment(self, content, mimetype):
        # The map's base64 by one encodebytes call (Encoders.encode_base64 makes one per 57 bytes:
        # ~1.5 ms of CPU over a ~110 kB map), and once should a message carry it twice.
        if self.inline_map is not None and content is self.inline_map[1]:
            image = MIMEBase(*mimetype.split("/", 1))
            image.set_payload(self._map_base64)
            image["Content-Transfer-Encoding"] = "base64"
            return image
        return super()._create_mime_attachment(content, mimetype)

    @functools.cached_property
    def _map_base64(self) -> str:
        # What Encoders.encode_base64 writes (its _bencode): base64.encodebytes' 76-character lines.
        return base64.encodebytes(self.inline_map[1]).decode("ascii")

    def _inline_part(self) -> MIMEBase:
        filename, content, mimetype = self.inline_map
        image = self._create_mime_attachment(content, mimetype)
        image["Content-ID"] = f"<{MAP_CID}>"
        image["Content-Disposition"] = f'inline; filename="{filename}"'
        return image


class ComposedMail(EmailMessage):
    """A message flattened ahead of its send (composing.py): the kept bytes stand in for the MIME
    tree wherever a backend flattens it (Django's SMTP backend and the .eml folder call
    ``message().as_bytes(linesep="\r\n")``). The envelope is ``to`` and the default sender, or the
    seat's return path the outbox puts in ``from_email`` (health.py)."""

    def __init__(self, raw: bytes, to: str):
        super().__init__(to=[to])
        self.raw = raw

    def message(self):
        return _Flattened(self.raw)


class _Flattened:
    """The flattened message, as the backends ask for it. Composed with CRLF line endings, where
    every line ending is a CRLF (the generator writes the output's one throughout)."""

    def __init__(self, raw: bytes):
        self.raw = raw

    def as_bytes(self, unixfrom: bool = False, linesep: str = "\n") -> bytes:
        return self.raw if linesep == "\r\n" else self.raw.replace(b"\r\n", linesep.encode())
