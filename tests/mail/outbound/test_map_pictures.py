"""A map is drawn as PNG once per drawing (campaigns/mailout/pictures.py): kept by the SHA-256 of its
SVG, reused by every attempt, retry and message that shows it, and drawn ahead of the send on the
render queue, so mail that waits for an SMTP server has its maps ready when the server answers."""

import io
import re

import pytest
import time_machine
from django.utils import timezone
from PIL import Image

from campaigns.mailout import outbox, pictures
from campaigns.models import MapPicture, OutboxMail
from rules import catalog
from rules.core.protocol import Viewer
from tests.services import needs_redis
from tests.support.games import state_of
from tests.support.workers import Worker, wait_for
from tests.turns.test_celery_adjudication import close_with_orders

pytestmark = pytest.mark.django_db(transaction=True)


def a_map(game, side="red") -> str:
    rs = catalog.get(game.ruleset)
    return rs.render_svg(rs.view(state_of(game).rules, Viewer(role="player", side=side)), crop=True)


def attached_png(smtp, address) -> bytes:
    msg = smtp.to(address)[-1]
    return next(p for p in msg.walk() if p.get_content_type() == "image/png").get_content()


def test_every_attempt_and_every_message_showing_a_drawing_use_the_one_kept_png(game, smtp):
    svg = a_map(game).replace("</svg>", "<!-- a drawing no mail has shown yet --></svg>")
    before = MapPicture.objects.count()  # the game's first mails showed their maps
    smtp.refuse = 1  # the first attempt fails and is retried
    first = outbox.queue_mail(key="pic-1", to="bob@example.org", subject="Map", body="x", game=game, map_svg=svg)
    assert MapPicture.objects.count() == before + 1  # drawn for the failed attempt, and kept
    kept = MapPicture.objects.get(digest=pictures.digest(svg))
    Image.open(io.BytesIO(bytes(kept.png))).verify()
    # Marked, so that a PNG drawn afresh would show: every later send must carry the kept bytes.
    MapPicture.objects.filter(pk=kept.pk).update(png=b"kept png")
    with time_machine.travel(timezone.now() + outbox.backoff(1) * 2, tick=False):
        assert outbox.requeue_due(timezone.now()) == 1  # the retry, once due
    first.refresh_from_db()
    assert first.status == OutboxMail.Status.SENT and first.attempts == 2
    assert attached_png(smtp, "bob@example.org") == b"kept png"
    outbox.queue_mail(key="pic-2", to="carol@example.org", subject="Map", body="x", game=game, map_svg=svg)
    assert attached_png(smtp, "carol@example.org") == b"kept png"
    assert MapPicture.objects.count() == before + 1


def test_another_drawing_gets_its_own_png(game, smtp):
    before = MapPicture.objects.count()
    one = a_map(game).replace("</svg>", "<!-- not yet shown --></svg>")
    other = a_map(game).replace("</svg>", '<circle cx="1" cy="1" r="1"/></svg>')
    outbox.queue_mail(key="pic-a", to="bob@example.org", subject="Map", body="x", game=game, map_svg=one)
    outbox.queue_mail(key="pic-b", to="carol@example.org", subject="Map", body="x", game=game, map_svg=other)
    assert MapPicture.objects.count() == before + 2
    assert attached_png(smtp, "bob@example.org") != attached_png(smtp, "carol@example.org")


@needs_redis
def test_maps_are_drawn_on_the_render_queue_while_no_mail_goes_out(game, broker):
    """Only a render worker runs (no mail worker, as while the SMTP server is down): the reports of
    a published turn wait, and their maps are drawn and their messages composed meanwhile."""
    worker = Worker(kinds=("adjudication", "render"))
    try:
        close_with_orders(game)
        assert wait_for(lambda: state_of(game).turn.number == 2)
        reports = OutboxMail.objects.filter(kind="report")
        digests = {pictures.digest(svg) for svg in reports.values_list("svg", flat=True)}
        assert digests and wait_for(lambda: MapPicture.objects.filter(digest__in=digests).count() == len(digests))
        # and each whole message flattened, ready for the SMTP server (composing.py)
        assert wait_for(lambda: not reports.filter(composed__isnull=True).exists())
        assert set(reports.values_list("status", flat=True)) == {"pending"}  # nothing was sent meanwhile
    finally:
        worker.stop()


def test_libvips_and_cairosvg_draw_the_same_map_at_the_same_size(game):
    """The fallback draws the same picture: libvips where its wheel loads, cairosvg elsewhere."""
    assert pictures.pyvips is not None and pictures.cairosvg is not None  # both installed here
    svg = a_map(game)
    by_vips = Image.open(io.BytesIO(pictures.draw(svg)))
    by_cairo = Image.open(io.BytesIO(pictures.cairosvg.svg2png(bytestring=svg.encode())))
    assert by_vips.size == by_cairo.size


def zlib_level_class(png: bytes) -> int:
    """FLEVEL of the PNG's zlib stream (RFC 1950: 0 fastest, 1 fast i.e. levels 2-5, 2 default, 3 best)."""
    at = png.index(b"IDAT") + 4  # the first IDAT chunk's data begins with the zlib header
    return png[at + 1] >> 6


def test_the_mailed_png_is_the_maps_size_fast_compressed_and_the_same_every_time(game, smtp):
    """One pixel per SVG unit (pictures.draw: the width a mail client shows, up to MAX_WIDTH), an
    8-bit palette PNG at zlib level 6 (pictures.PALETTE, measured by bench/mail_maps.py), the same
    bytes for the same map."""
    svg = a_map(game).replace("</svg>", "<!-- drawn for this test --></svg>")
    outbox.queue_mail(key="pic-size", to="bob@example.org", subject="Map", body="x", game=game, map_svg=svg)
    mailed = attached_png(smtp, "bob@example.org")
    picture = Image.open(io.BytesIO(mailed))
    picture.load()  # decodes every row: a truncated or corrupt stream raises
    width, height = (round(float(re.search(f' {dim}="([0-9.]+)"', svg).group(1))) for dim in ("width", "height"))
    assert picture.format == "PNG" and picture.size == (width, height)
    assert picture.mode == "P" and zlib_level_class(mailed) == 2
    assert pictures.draw(svg) == mailed


def test_a_map_with_a_board_layer_is_drawn_as_the_whole_map(game):
    """The board drawn once and the view laid over it (pictures.draw, MAPS.md's board layer) give the
    picture the whole SVG gives, to antialiasing's rounding and the palette's, for every seat's view."""
    from PIL import ImageChops

    for side in ("red", "blue"):
        svg = a_map(game, side)
        assert pictures.layers(svg) is not None  # the Civil War map has one
        layered = Image.open(io.BytesIO(pictures.draw(svg))).convert("RGBA")
        whole = Image.open(io.BytesIO(pictures._raster(svg))).convert("RGBA")
        assert layered.size == whole.size
        # Each picture has its own palette (pictures.PALETTE): a few edge pixels quantise to another
        # of its colours; the picture is the same.
        diff = ImageChops.difference(layered, whole).convert("L").point(lambda v: 255 if v > 8 else 0)
        assert diff.histogram()[255] <= 0.005 * layered.size[0] * layered.size[1], diff.histogram()[255]


def test_the_board_is_drawn_once_for_every_view_of_it(game):
    pictures._board.cache_clear()
    for side in ("red", "blue", "red"):
        pictures.draw(a_map(game, side))
    info = pictures._board.cache_info()
    assert (info.misses, info.hits) == (1, 2)  # red's and blue's maps differ, their board does not


def test_an_svg_without_a_board_layer_is_drawn_whole():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10"/></svg>'
    assert pictures.layers(svg) is None
    assert pictures.layers(svg.replace("<rect", '<g data-layer="board"><rect')) is None  # never closed
    assert Image.open(io.BytesIO(pictures.draw(svg))).size == (20, 10)
