"""A report's map as a PNG, rendered once per drawing and kept by content.

Rendering an SVG map to PNG costs a tenth of a second of CPU (libvips) to a few tenths (cairosvg),
far more than the rest of a send. Done at every send attempt, it made a backlog after an SMTP outage drain at a few
mails a second, and every retry paid it again. So the PNG is kept in ``MapPicture`` under the
SHA-256 of the SVG text: whatever a map depends on (the viewer's view, the reader's language, the
rule set's drawing) is in that text, so one key serves every attempt, retry and resend of a
message and every message that shows the same drawing.

``prerender`` makes the PNG ahead of the send, on the render queue (kriegsbrief/queues.py), as soon
as the report is queued: while the SMTP server is down or slow, the maps of the waiting mail are
drawn, and once it answers the mail workers only send. A send that finds no PNG yet renders it
itself (nothing waits for the render queue). Concurrent renderers of one drawing take a
PostgreSQL advisory lock on its key, so it is drawn once.

``forget_unused`` (a beat task on the maintenance queue) deletes, in bounded batches, the pictures
no unsent mail needs and no send or render has used for MAP_PICTURE_KEEP_HOURS.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Func
from django.db.models.functions import SHA256
from django.utils import timezone

from campaigns import transient
from campaigns.models import MapPicture, OutboxMail
from rules.core.mapsvg import BOARD_CLOSE, BOARD_OPEN

try:
    import cairosvg
except (ImportError, OSError):  # cairocffi raises OSError when libcairo is missing
    cairosvg = None
try:
    # libvips (pyvips-binary bundles it with librsvg): the same picture in a fraction of cairosvg's
    # time, which is what bounds how fast mail goes out once an SMTP outage ends.
    import pyvips
except (ImportError, OSError):  # no wheel for this platform and no system libvips: cairosvg draws
    pyvips = None

log = logging.getLogger(__name__)

# The Celery task that renders one row's map ahead of its send (campaigns.mailout.tasks), by name.
RENDER_TASK = "campaigns.tasks.render_map"
# The beat task (maintenance queue) that deletes pictures no one needs any more (forget_unused).
FORGET_TASK = "campaigns.tasks.forget_map_pictures"


# zlib level 3, not libvips' default 6: the PNG's encoding takes about half the time (a tenth of a
# map's drawing) for some 7-9% more bytes. bench/mail_maps.py measures it beside the old settings;
# it also measured, and rejected, dropping the alpha band (flattening costs what it saves). Now the
# fallback only, where libvips cannot quantise (PALETTE).
PNG_COMPRESSION = 3
# Sized for a phone (issue 30): a map is written as an 8-bit palette PNG, quantised without
# dithering (the maps are flat colours and text: dithering's noise is what would not compress),
# at a third of the bytes of the RGBA one (median 33 kB against 100 kB over the rule sets' mail
# maps, bench/mail_maps.py) for ~12 ms more CPU, and nothing a reader can tell apart. With the map
# once per message a report is ~50 kB instead of ~300 kB.
PALETTE = {"palette": True, "dither": 0, "Q": 80, "effort": 1, "compression": 6}
# No map wider than a large phone's screen is in device pixels: a wider one (Kings of War's table,
# the Kriegspiel umpire's whole table) is drawn smaller, as vectors, so it stays sharp.
MAX_WIDTH = 1080
_WIDTH = re.compile(r"""<svg\b[^>]*?\swidth=["']\s*([0-9.]+)""")


def digest(svg: str) -> str:
    return hashlib.sha256(svg.encode()).hexdigest()


def map_attachment(svg: str) -> tuple[str, bytes, str]:
    """The map as map.png (kept: rendered once per drawing); as map.svg where neither libvips nor
    cairo can be loaded (the embedded default must run on a machine without Debian's libcairo2)."""
    if not can_draw():
        log.warning("no PNG renderer (libvips, cairosvg): maps are mailed as SVG (install libcairo2 for PNG)")
        return "map.svg", svg.encode(), "image/svg+xml"
    return "map.png", transient.retrying(png, svg), "image/png"


def png(svg: str) -> bytes:
    """The PNG of this SVG: the kept one, else rendered now (once, under the drawing's lock) and kept."""
    key = digest(svg)
    kept = MapPicture.objects.filter(digest=key).values_list("png", "used_at").first()
    if kept is not None:
        _used(key, kept[1])
        return bytes(kept[0])
    with transaction.atomic():
        _lock(key)  # a concurrent renderer of the same drawing finishes first; we then read its PNG
        kept = MapPicture.objects.filter(digest=key).values_list("png", flat=True).first()
        if kept is not None:
            return bytes(kept)
        picture = MapPicture(digest=key, png=draw(svg))
        MapPicture.objects.bulk_create([picture], ignore_conflicts=True)
        return picture.png


# How stale ``used_at`` may be before a use writes it again: a picture shown by a burst of mail is
# written once, not once per send; the keeping time is hours.
USED_EVERY = timedelta(minutes=10)


def _used(key: str, used_at: datetime) -> None:
    now = timezone.now()
    if used_at < now - USED_EVERY:
        MapPicture.objects.filter(digest=key, used_at__lt=now - USED_EVERY).update(used_at=now)


class _SvgDigest(SHA256):
    """``digest`` of an outbox row's SVG where the row is: PostgreSQL's built-in sha256() of the UTF-8
    text (Django's SHA256 wants pgcrypto there); SQLite's is Django's own. The SVG texts (tens of
    kB each) never leave the database."""

    def as_postgresql(self, compiler, connection, **extra_context):
        template = "encode(sha256(convert_to(%(expressions)s, 'UTF8')), 'hex')"
        return Func.as_sql(self, compiler, connection, template=template, **extra_context)


def forget_unused(now: datetime | None = None, batch: int = 500, batches: int = 20) -> int:
    """Delete pictures unused for MAP_PICTURE_KEEP_HOURS that no mail waiting to go out needs, oldest
    first, at most ``batches`` batches of ``batch`` rows, each its own short statement; the number
    deleted. A mail that needs a deleted drawing later (one queued meanwhile, a DEAD row sent again
    by the operator) has it drawn again: the cost of a render, never a lost map."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.MAP_PICTURE_KEEP_HOURS)
    waiting = [OutboxMail.Status.PENDING, OutboxMail.Status.FAILED, OutboxMail.Status.SENDING]
    needed = (
        OutboxMail.objects.filter(status__in=waiting)  # outbox_waiting_idx's own condition: no scan of sent mail
        .exclude(svg="")
        .annotate(svg_digest=_SvgDigest("svg"))
        .values("svg_digest")
    )
    stale = MapPicture.objects.filter(used_at__lt=cutoff).exclude(digest__in=needed)
    deleted = 0
    for _ in range(batches):
        keys = list(stale.order_by("used_at").values_list("digest", flat=True)[:batch])
        if not keys:
            break
        # used_at again: a send that found one of them meanwhile keeps it
        deleted += MapPicture.objects.filter(digest__in=keys, used_at__lt=cutoff).delete()[0]
        if len(keys) < batch:
            break
    return deleted


def can_draw() -> bool:
    return pyvips is not None or cairosvg is not None


def draw(svg: str) -> bytes:
    """The SVG as PNG: by libvips where it loads, else by cairosvg. One pixel per SVG unit up to
    MAX_WIDTH: the rule sets draw their mail maps 700-950 units wide, the width a mail client shows,
    and at a smaller scale their 8-9 px labels would blur (rasterising the text is most of the time, so a
    smaller scale would save little anyway: bench/mail_maps.py).

    A map with a board layer (rules/core/MAPS.md) is drawn as its board, kept drawn in this process
    (``_board``: every report of a game, and every game on the same board, shares it), with the
    view drawn over it: most of a map's text is the board's place names."""
    split = layers(svg) if pyvips is not None else None
    if split is None:
        return _raster(svg)
    board, view = split
    at = scale(svg)
    picture = _board(board, at).composite2(pyvips.Image.svgload_buffer(view.encode(), scale=at), "over")
    return encode(picture)


def scale(svg: str) -> float:
    """The scale a map is drawn at: 1, or less for one wider than MAX_WIDTH (its root's width)."""
    found = _WIDTH.search(svg[:2000])
    width = float(found.group(1)) if found else 0.0
    return MAX_WIDTH / width if width > MAX_WIDTH else 1.0


def encode(picture) -> bytes:
    """A drawn map as PNG: the palette PNG (PALETTE), else (a libvips without quantisation) RGBA."""
    try:
        return bytes(picture.write_to_buffer(".png", **PALETTE))
    except pyvips.Error:
        return bytes(picture.write_to_buffer(".png", compression=PNG_COMPRESSION))


def _raster(svg: str) -> bytes:
    if pyvips is not None:
        return encode(pyvips.Image.svgload_buffer(svg.encode(), scale=scale(svg)))
    return cairosvg.svg2png(bytestring=svg.encode(), scale=scale(svg))


def layers(svg: str) -> tuple[str, str] | None:
    """(the board alone, the view alone), each a whole SVG of the map's size, of an SVG whose first
    child is a board layer (MAPS.md); None for one without."""
    head, found, rest = svg.partition(BOARD_OPEN)
    if not found or head.count("<") != 1 or not head.lstrip().startswith("<svg"):
        return None
    board, closed, view = rest.partition(BOARD_CLOSE)
    if not closed:
        return None
    return head + board + "</svg>", head + view


# Boards drawn, by their SVG: a few games' boards in each language and map size (a map is ~2.7 MB
# of pixels; 2 sizes of one board serve every report of every game played on it).
@functools.lru_cache(maxsize=8)
def _board(svg: str, at: float = 1.0):
    return pyvips.Image.svgload_buffer(svg.encode(), scale=at).copy_memory()


def prerender(row_id: int) -> bool:
    """Render a queued row's map ahead of its send (the render task). False if it has none or is sent."""
    svg = (
        OutboxMail.objects.filter(pk=row_id, status__in=[OutboxMail.Status.PENDING, OutboxMail.Status.FAILED])
        .values_list("svg", flat=True)
        .first()
    )
    if not svg or not can_draw():
        return False
    png(svg)
    return True


def _lock(key: str) -> None:
    # Transaction-scoped advisory lock on the first 8 bytes of the digest (PostgreSQL only; the
    # SQLite of a quick local run has one writer anyway).
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute(
                "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(bytes.fromhex(key[:16]), "big", signed=True)]
            )
