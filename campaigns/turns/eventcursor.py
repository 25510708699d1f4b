"""The opaque place in one viewer's event log: the API pages events after it, the web game page
shows events before it ("older events"). Shared by both channels, so it lives below them."""

from __future__ import annotations

from django.core import signing
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from rules.core.protocol import Viewer

from . import viewing


class BadCursor(ValueError):
    """A cursor that is not one this server gave this viewer for this game; the message says which."""


class EventCursor:
    """The opaque place in one viewer's log that a page of events resumes from.

    It holds the viewer's own number of the last event they have (see
    ``viewing.number_events``), never the log's seq in the clear, signed with
    the secret key (``django.core.signing``) and bound to the game and the
    viewer's window on it, so it can be neither forged nor carried to
    another game or another side's log.

    So that a page is found by the index on (game, seq) - keyset, not OFFSET:
    its cost does not grow with the log - the cursor also carries that event's
    seq, masked: XOR-ed with a pad that is a keyed hash (``salted_hmac``, the
    secret key) of the game, the window and the number. A viewer's Nth event is
    always the same event (the log only grows at the viewer's end), so each pad
    ever masks one value only and the mask tells nothing: a player cannot read
    from it how many events the other side wrote. (No cipher library is needed
    for a single integer, and the same place still gives the same cursor.)
    """

    SALT = "kriegsbrief.api.events-cursor"

    @classmethod
    def _pad(cls, game_pk: int, window: str, after: int) -> int:
        digest = salted_hmac(cls.SALT + ".seq", f"{game_pk}|{window}|{after}", algorithm="sha256").digest()
        return int.from_bytes(digest[:8], "big")

    @classmethod
    def make(cls, game, viewer: Viewer, after: int, seq: int) -> str:
        window = viewing.window_of(viewer)
        # No timestamp (unlike signing.dumps): the same place gives the same cursor.
        return signing.Signer(salt=cls.SALT).sign_object(
            {"game": game.pk, "window": window, "after": after, "at": seq ^ cls._pad(game.pk, window, after)}
        )

    @classmethod
    def read(cls, token: str, game, viewer: Viewer) -> int:
        """The number the cursor resumes after; ``BadCursor`` if it is not this viewer's for this game."""
        return cls.place(token, game, viewer)[0]

    @classmethod
    def place(cls, token: str, game, viewer: Viewer) -> tuple[int, int | None]:
        """(number, seq) of the event the cursor resumes after (seq None: a cursor made before cursors
        carried it, resumed by counting)."""
        try:
            data = signing.Signer(salt=cls.SALT).unsign_object(token)
        except (signing.BadSignature, ValueError):
            raise BadCursor(
                _(
                    "not a cursor this server gave out: pass back the `cursor` or follow `next` of an earlier page unchanged"
                )
            ) from None
        if not isinstance(data, dict) or not isinstance(data.get("after"), int) or data["after"] < 0:
            raise BadCursor(_("not a cursor this server gave out"))
        if data.get("game") != game.pk:
            raise BadCursor(_("this cursor pages another game's log"))
        window = viewing.window_of(viewer)
        if data.get("window") != window:
            raise BadCursor(_("this cursor pages another seat's view of the log (yours begins without a cursor)"))
        masked = data.get("at")
        seq = masked ^ cls._pad(game.pk, window, data["after"]) if isinstance(masked, int) else None
        return data["after"], seq
