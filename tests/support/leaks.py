"""The differential leak machinery: everything one seat can fetch or has received, normalised.

Two games in one database that differ only in what the other side did in secret must give
a seat byte-identical output. ``sees`` collects it all: API JSON, web pages (the game page and
every past turn's history page), both SVG maps, the errors its requests get, the response
headers of every fetch, its event log and the cursors that page it, every mail it was sent as
the bytes that go out (the map as PNG), the answers to its own mail, its export - and how many
events the server folded to answer it all (the work must not depend on the other side's hidden
events either, rules/core/protocol.py).

Normalised, and only these, because they differ between two games in one database by
construction and carry nothing about play:
- the game's id and uid, the campaign's id, seat ids: database keys of two different games;
- the seats' secret reply tokens and the Message-IDs derived (keyed hash) from keys holding ids;
- the CSRF token of a form (random per response);
- the signature of an event-log cursor (it names the game): each cursor is checked to be this
  viewer's for this game and replaced by the place it resumes from;
- MIME boundaries of outgoing mail (random per message);
- ``Content-Length`` is checked to be exactly the length of the body as sent, then replaced by
  that fact: the body itself is compared (normalised), and the raw lengths differ only by the
  digits of the game's id. Likewise ``ETag``: checked to be the hash of the body as sent, so it
  can say nothing the body does not (the bodies of two games differ by their ids).
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from dataclasses import fields
from hashlib import md5
from urllib.parse import unquote

from django.utils.http import quote_etag

from api.pagination import EventCursor
from campaigns.log.eventstore import Fold
from campaigns.mailin import ingest
from campaigns.mailin.models import SeatAddress
from campaigns.mailout.composing import build_message
from campaigns.models import OutboxMail, Seat
from campaigns.turns import gamelog
from campaigns.turns.archive import export_lines
from rules.core.protocol import Viewer
from rules.kriegspiel.scenario import load
from tests.support.api import client_for
from tests.support.mail import seat_mail

# the headers a response may carry; any other one fails the comparison until it is judged here
HEADERS = (
    "Content-Type",
    "Content-Length",
    "Cache-Control",
    "Content-Security-Policy",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "Vary",
    "Allow",
    "Content-Language",
    "Expires",
    "Last-Modified",
    "ETag",
)


def far_apart_scenario() -> dict:
    """ks_farm on a 200 in deep table: the armies start 16 ft apart, out of each other's sight."""
    sc = load("ks_farm")
    sc["table"]["depth"] = 200.0
    for g in sc["forces"]["blue"]["groups"] + sc["forces"]["blue"]["guns"]:
        g["at"][1] -= 88
    for t in sc["terrain"]:
        key = "polygon" if "polygon" in t else "line"
        t[key] = [[x, y - 88] for x, y in t[key]]
    sc["kriegspiel"]["supply"]["blue"][0]["at"] = [48, 198]
    return sc


@contextmanager
def counting_folds(game_id: int | None = None):
    """Counts the stored events the event store folds (every load, past state and replay goes
    through its ``Fold.event``) — of one game, or of all with ``game_id`` None (the list of one's
    games loads the other games too, which differ between two differential runs by construction);
    the real fold runs."""
    count = [0]
    real = gamelog.store.fold

    class Counting(Fold):
        def event(self, state, ev):
            count[0] += game_id is None or ev.game_id == game_id
            return super().event(state, ev)

    gamelog.store.fold = Counting(**{f.name: getattr(real, f.name) for f in fields(real)})
    try:
        yield count
    finally:
        gamelog.store.fold = real


def sees(game, user, seat_role="player", side="red") -> dict:
    """Everything a seat (red, or another that must learn nothing of blue's secrets) can fetch or has received."""
    with counting_folds(game.pk) as folds:
        out = _fetch(game, user, seat_role, side)
    out["events folded"] = str(folds[0])
    return {k: normalise(v, game) for k, v in out.items()}


def glance(game, user) -> dict:
    """A look in the middle of a turn (the other side may be busy in secret): the seat's view, its
    game page, their headers, and the events folded to answer."""
    api, web = client_for(user), client_for(user)
    out = {}
    with counting_folds(game.pk) as folds:
        for client, url in ((api, f"/api/games/{game.pk}/view/"), (web, f"/games/{game.pk}/")):
            resp = client.get(url)
            assert resp.status_code == 200, url
            out[url] = resp.content.decode()
            out[f"headers {url}"] = headers(resp)
    out["events folded"] = str(folds[0])
    return {f"mid-turn {normalise(k, game)}": normalise(v, game) for k, v in out.items()}


def _fetch(game, user, seat_role, side) -> dict:
    api, web = client_for(user), client_for(user)
    out = {}
    published = sorted(game.events.filter(type="turn.published").values_list("turn", flat=True))
    for path in (
        "/api/games/G/",
        "/api/games/G/view/",
        "/api/games/G/map.svg",
        "/games/G/",
        "/games/G/map.svg",
        *(f"/games/G/turns/{n}/" for n in published),
    ):  # every past turn as the seat saw it
        url = path.replace("/G/", f"/{game.pk}/")
        resp = (web if url.startswith("/games") else api).get(url)
        assert resp.status_code == 200, url
        out[path] = resp.content.decode()
        out[f"headers {path}"] = headers(resp)
    # the game's campaign as the seat sees it (issue 28): its games, battles, standings and record
    resp = web.get(f"/campaigns/{game.campaign_id}/")
    assert resp.status_code == 200
    out["/campaigns/C/"] = resp.content.decode()
    out["headers /campaigns/C/"] = headers(resp)
    for query in ("cursor=forged", "limit=0", "after=3"):  # the errors its requests get
        resp = api.get(f"/api/games/{game.pk}/events/?{query}")
        assert resp.status_code == 400, query
        out[f"error {query}"] = resp.content.decode()
        out[f"headers error {query}"] = headers(resp)
    out["games"] = json.dumps([g for g in _items(api.get("/api/games/").json()) if g["id"] == game.pk], sort_keys=True)
    out["seats"] = json.dumps(
        [s for s in _items(api.get("/api/seats/").json()) if s.get("game") == game.pk], sort_keys=True
    )
    events, pages, url = [], [], f"/api/games/{game.pk}/events/?limit=50"
    while url:
        resp = api.get(url)
        page = resp.json()
        events += page["results"]
        pages.append({k: v for k, v in page.items() if k != "results"} | {"headers": headers(resp)})
        url = page["next"]
    out["events"] = json.dumps(events, sort_keys=True)
    out["event pages"] = json.dumps(pages, sort_keys=True)
    # resuming from the last cursor: nothing new, and the same cursor back
    out["events resumed"] = api.get(f"/api/games/{game.pk}/events/?cursor={pages[-1]['cursor']}").content.decode()
    seat = Seat.objects.get(game=game, role=seat_role, side=side if seat_role == "player" else "")
    rows = OutboxMail.objects.filter(seat=seat).order_by("pk")
    out["mail"] = json.dumps(
        [
            [m.kind, m.to, m.reply_to, m.subject, m.body, m.html, m.svg, m.message_id, m.in_reply_to, m.references]
            for m in rows
        ]
    )
    out["mail as sent"] = "\n".join(_sent(m) for m in rows)  # headers, text, HTML and the map as PNG
    out["export"] = "\n".join(export_lines(game, Viewer(seat_role, side if seat_role == "player" else None)))
    return out


def headers(resp) -> str:
    """The response's headers, Content-Length checked against the body (see the module doc)."""
    unknown = set(resp.headers) - set(HEADERS)
    assert not unknown, f"a header no leak test has judged: {unknown}"
    out = {k: resp.headers[k] for k in HEADERS if k in resp.headers}
    if "Content-Length" in out:
        assert int(out["Content-Length"]) == len(resp.content)
        out["Content-Length"] = "the body's length"
    if "ETag" in out:
        assert out["ETag"] == quote_etag(md5(resp.content, usedforsecurity=False).hexdigest())
        out["ETag"] = "the body's hash"
    return json.dumps(out, sort_keys=True)


_SENT: dict[tuple, str] = {}


def _sent(row) -> str:
    """The message as it goes out (built once per row: a row's content never changes, and the map's
    PNG is the slow part)."""
    key = (row.pk, row.key, row.subject, row.body, row.html, row.svg)  # ids may be reused by a later test
    if key not in _SENT:
        raw = build_message(row).message().as_string()
        for boundary in set(re.findall(r'boundary="([^"]+)"', raw)):
            raw = raw.replace(boundary, "BOUNDARY")
        _SENT[key] = raw
    return _SENT[key]


def _items(body):
    return body["results"] if isinstance(body, dict) else body


def normalise(text: str, game) -> str:
    text = text.replace(str(game.uid), "GAME-UID")
    text = re.sub(rf"(/games/|\"(?:id|game|game_id)\":\s*){game.pk}\b", r"\1G", text)
    text = re.sub(rf"(\"campaign_id\":\s*|/campaigns/){game.campaign_id}\b", r"\1C", text)
    for seat in Seat.objects.filter(game=game):
        text = re.sub(rf"(\"(?:id|seat|seat_id)\":\s*|seats/){seat.pk}\b", rf"\1S-{seat.role}-{seat.side}", text)
    for addr in SeatAddress.objects.filter(seat__game=game):
        text = text.replace(addr.token, "TOKEN")
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value="CSRF"', text)
    # a seat's one-click unsubscribe link is signed for that seat (so it differs between the two games)
    text = re.sub(r"/mail/unsubscribe/[^/\s>\"]+/", "/mail/unsubscribe/SIGNED/", text)
    text = re.sub(r"(cursor=|\"cursor\":\s*\")([\w:%-]{8,})", lambda m: m[1] + _cursor(game, unquote(m[2])), text)
    return re.sub(r"<[0-9a-f]{32}@", "<MSGID@", text)


def _cursor(game, token: str) -> str:
    """A cursor names the game it pages (signed, so it differs between the two games): check it
    was made for this game and red (or the observer), and keep only the place it resumes from."""
    for viewer in (Viewer("player", "red"), Viewer("observer", None)):
        try:
            return f"CURSOR-{viewer.role}-after-{EventCursor.read(token, game, viewer)}"
        except ValueError:
            continue
    raise AssertionError(f"a cursor that is not red's or the observer's for this game: {token}")


def mail_from(seat, body: str, msgid: str) -> str:
    """``seat`` answers its reply address by mail; the acknowledgement's body."""
    row = ingest.ingest(seat_mail(seat, body, msgid=f"<{msgid}-{seat.game.uid}@client.example>"), via="test")
    assert row.status == "applied", row.error
    return OutboxMail.objects.filter(seat=seat, kind="mail-reply").latest("pk").body
