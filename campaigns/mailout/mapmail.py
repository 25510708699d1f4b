"""An outgoing message whose HTML part shows the map inline, and the Date in the reader's zone.

The structure (RFC 2046/2387), so that a client that shows HTML shows the map in the text and
one that does not still has it as an attachment:

    multipart/mixed
      multipart/alternative
        text/plain
        multipart/related
          text/html            <img src="cid:MAP_CID">
          image/png            Content-ID: <MAP_CID>, inline
      image/png                map.png, attachment

The Date header is written in the seat's own time zone (its offset, e.g. +0900), not in UTC
passed off as local time: a mail client shows it either way, but a reader who looks at the
raw header sees their own clock.
"""

from __future__ import annotations

import base64
import functools
import secrets
from email.generator import NLCRE, BytesGenerator
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


class MapMail(EmailMultiAlternatives):
    """``inline_map``: (filename, content, mimetype) of the map, shown in the HTML part by Content-ID."""

    def __init__(self, *args, inline_map: tuple[str, bytes, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.inline_map = inline_map

    def message(self):
        msg = super().message()
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
        # The map is in the message twice (inline and attached): encode it once. Encoders.encode_base64
        # over a map's ~110 kB cost ~1.5 ms of CPU a time (base64.encodebytes: a call per 57 bytes).
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
