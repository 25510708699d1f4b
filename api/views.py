"""The REST API: my games and seats, orders, readiness, the umpire's commands,
and per-viewer views, maps and event logs.

THE RULE: every response about a game is built only from
``viewing.game_view`` and ``viewing.visible_events`` for the requesting
viewer, never from the folded state or raw events. Games are looked up only
among those where the user holds a seat, so everyone else gets 404.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import asdict

from django.http import Http404, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import get_conditional_response, set_response_etag
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from campaigns import maps
from campaigns.battles import linking, summary
from campaigns.i18n import activate_for, draw_map, render
from campaigns.mailout import health
from campaigns.models import Game, Seat
from campaigns.turns import (
    commands,
    deadlines,
    failures,
    gamelog,
    invitations,
    listing,
    rulings,
    versions,
    viewing,
)
from campaigns.turns.commands import TurnError
from rules import catalog

from . import (
    creation,
    schema,  # noqa: F401  (registers the schema extensions)
)
from . import serializers as s
from .pagination import GamePagination, ViewerLogPagination
from .permissions import HoldsSeat, IsUmpire, MayGiveOrders

# --- documented error responses ----------------------------------------------

NOT_AUTH = OpenApiResponse(s.ErrorSerializer, description="The role may not do this.")
NO_AUTH = OpenApiResponse(
    s.ErrorSerializer, description="Not authenticated: no credentials, or a token that expired or was revoked."
)
NOT_FOUND = OpenApiResponse(s.ErrorSerializer, description="No such game among those where you hold a seat.")
CONFLICT = OpenApiResponse(
    s.ErrorSerializer,
    description="The game is not in a state that allows this now (e.g. the turn is closed, or not this side's turn).",
)
INVALID = OpenApiResponse(s.ValidationErrorSerializer, description="Invalid request body or query.")
ORDERS_ERROR = OpenApiResponse(
    PolymorphicProxySerializer(
        component_name="OrdersError",
        serializers=[s.OrdersRejectedSerializer, s.ValidationErrorSerializer],
        resource_type_field_name=None,
    ),
    description="Orders refused with per-line errors (orders accepted before stay in force), "
    "or an invalid request body (e.g. unknown side).",
)
READ_ERRORS = {401: NO_AUTH, 403: NOT_AUTH, 404: NOT_FOUND}
CREATE_ERROR = OpenApiResponse(
    s.ValidationErrorSerializer,
    description="A field that is wrong (its path -> messages, e.g. `players[1].username`: an unknown user, "
    "side, scenario, campaign...), or "
    "the game as a whole refused (`detail`: e.g. a user named for two seats, a side without a "
    "player, an option the rule set does not have). Nothing is created.",
)


# The headers a 304 carries over from the 200 it stands for (RFC 9110, 15.4.5; Vary is set again).
_KEPT_HEADERS = ("Cache-Control", "Content-Location", "ETag", "Expires", "Last-Modified")


class SentETags:
    """The ETag (with the headers a 304 repeats) of each body sent, by what the body was made
    from (``SeatedGameMixin.etag_key``): a poll whose If-None-Match is the one kept for its key
    is answered 304 from the two statements that find the token and the seat with its key, without
    loading, folding or rendering the game. Per process, bounded (least recently used first out),
    and lost at a restart or deploy, when a poll folds and hashes once more: so the ETag is always
    the hash of a body this code made. Thread-safe (gunicorn's gthread workers)."""

    def __init__(self, size: int):
        self._kept: OrderedDict[tuple, tuple[tuple[str, str], ...]] = OrderedDict()
        self._size, self._lock = size, threading.Lock()

    def get(self, key: tuple) -> tuple[tuple[str, str], ...] | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: tuple, headers: tuple[tuple[str, str], ...]) -> None:
        with self._lock:
            self._kept[key] = headers
            self._kept.move_to_end(key)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


SENT_ETAGS = SentETags(20_000)  # a key and its ETag: some 600 bytes, so about 12 MB at most
# Bodies whose bytes depend only on the key: not the browsable API's HTML (its CSRF token, its user).
_KEYED_FORMATS = frozenset({"json", "svg"})


def _conditional_get(request, response, key: tuple | None = None):
    """The ETag is Django's hash of the body as sent (as its ConditionalGetMiddleware makes it), so
    it says nothing the body does not: it changes only when what this viewer sees changes, never on
    events hidden from them. A poller sending it back in If-None-Match gets 304 and no body. With
    ``key`` (``SeatedGameMixin.etag_key``) it is kept, so that the next poll with it is answered
    before the body is made again (``SeatedGameMixin.not_modified``)."""
    if hasattr(response, "render"):  # a DRF Response (the map is a plain HttpResponse)
        response.render()
    set_response_etag(response)
    if key is not None and response.has_header("ETag"):
        SENT_ETAGS.put(key, tuple((h, response.headers[h]) for h in _KEPT_HEADERS if h in response.headers))
    return get_conditional_response(request, etag=response.headers.get("ETag"), response=response)


def _turn_error(exc: TurnError) -> Response:
    return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)


def _line_errors(errors) -> list[dict]:
    return [{**asdict(e), "message": render(e.message)} for e in errors]  # in the user's language


def _rules_code_version(ruleset: str) -> int | None:
    try:
        return catalog.get(ruleset).version
    except KeyError:  # a game of a rule set this code does not have: its view says so
        return None


class SeatedGameMixin:
    """Looks games up only among the requesting user's; resolves the viewer."""

    viewer = None
    seat = None
    heads: tuple[str | None, ...] = ()
    etag_key: tuple | None = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        activate_for(request, request.user)  # token users are anonymous to the page middleware

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Game.objects.none()
        mine = Seat.objects.active().filter(user=self.request.user).values("game_id")
        return Game.objects.filter(pk__in=mine).select_related("campaign").order_by("-pk")

    def get_object(self) -> Game:
        # One query finds the game among the user's, their seat in it and the heads of the parts of
        # the log their view is made from (every request about a game comes here).
        game = self._seated(viewing.seated_in(self.kwargs["pk"], self.request.user))
        if self._keyed():
            self.etag_key = self._etag_key(game)
        return game

    def _seated(self, found: viewing.Seated | None) -> Game:
        if found is None:  # no such game, or no seat in it: the same answer
            raise Http404("No Game matches the given query.")
        game, self.viewer, self.seat, self.heads = found
        self.check_object_permissions(self.request, game)
        return game

    def conditional(self) -> bool:
        """Whether a GET here answers If-None-Match (a view a client polls)."""
        return getattr(self, "action", None) in {"retrieve", "view"}

    def etag_more(self, game: Game) -> tuple:
        """What else than the view this action's body is made from, for its ETag's key."""
        return ()

    def _keyed(self) -> bool:
        """Whether this request's body is one whose ETag is kept by its key (``not_modified``)."""
        request = self.request
        renderer = getattr(request, "accepted_renderer", None)
        return request.method == "GET" and self.conditional() and getattr(renderer, "format", None) in _KEYED_FORMATS

    def _etag_key(self, game: Game) -> tuple:
        """Everything the body of this GET is made from (``not_modified``)."""
        request = self.request
        return (
            type(self).__name__,
            getattr(self, "action", None),
            request.accepted_renderer.format,
            request.accepted_media_type,
            get_language(),
            request.user.pk,
            self.seat.pk if self.seat is not None else None,
            self.viewer,
            game.pk,
            game.name,
            game.ruleset,
            game.campaign_id,
            game.campaign.name,
            _rules_code_version(game.ruleset),
            self.heads,
            *self.etag_more(game),
        )

    def not_modified(self) -> HttpResponseBase | None:
        """The 304 for a conditional GET whose If-None-Match names the ETag last sent for what its
        body would be made from now, known without loading the game or making the body: from the
        seat, found with the heads by a light query (``seated_in(light=True)``), and the ETag kept
        for this key. None: make the body (by ``get_object``'s full query; ``finalize_response``
        then keeps its ETag for the key).

        The key (``_etag_key``): the action and the format; the viewer (user, seat, role, side,
        command) and their language; the game's row and its campaign's (names); the version of the
        rule set's code; what else the action's body holds (``etag_more``: the roster's seats);
        and the heads of the parts of the log this viewer's view is folded from
        (``viewing.Seated``): a new event they may see, a turn opened or closed, a deadline moved,
        a rules version changed all move one. The other side's private events are not in it, so
        they neither change the answer nor make it cost more. The ETag itself stays the hash of a
        body as sent."""
        request = self.request
        if "HTTP_IF_NONE_MATCH" not in request.META or not self._keyed():
            return None
        game = self._seated(viewing.seated_in(self.kwargs["pk"], request.user, light=True))
        kept = SENT_ETAGS.get(self._etag_key(game))
        if kept is None:
            return None
        headers = dict(kept)
        answer = get_conditional_response(request, etag=headers["ETag"])
        if answer is not None:
            for name, value in headers.items():
                answer.headers[name] = value
        return answer

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method == "GET" and response.status_code == 200 and self.conditional():
            return _conditional_get(request, response, self.etag_key)
        return response

    def my_view(self, game: Game) -> tuple[dict, dict]:
        """The state (for visible_events only) and this viewer's game_view."""
        state = gamelog.load(game).state
        return state, viewing.game_view(game, state, self.viewer)


def _summary(game: Game, turn: dict, viewer) -> dict:
    """One of my games: the game row, my turn view (``lifecycle_view``) and my seat."""
    return {
        "id": game.pk,
        "name": game.name,
        "ruleset": game.ruleset,
        "campaign": game.campaign.name,
        "campaign_id": game.campaign_id,
        "status": turn["game_status"],
        "turn_number": turn["number"],
        "turn_status": turn["status"],
        "turn_kind": turn["kind"],
        "turn_sides": turn["sides"],
        "deadline": turn["deadline"],
        "role": viewer.role,
        "side": viewer.side,
    }


READ_ACTIONS = {"list", "retrieve", "view", "events"}
ORDER_ACTIONS = {"orders", "ready"}
UMPIRE_ACTIONS = {
    "approve",
    "amend",
    "close",
    "ruling",
    "deadline",
    "rules_version",
    "retry",
    "battle_choose",
    "battle_review",
    "mail_health",  # seats' addresses: the umpire's only
}


@extend_schema_view(
    list=extend_schema(
        summary="My games",
        description="Games where I hold a seat, newest first.",
        responses={
            200: s.GameSummarySerializer(many=True),
            400: INVALID,
            401: NO_AUTH,
            404: OpenApiResponse(s.ErrorSerializer, description="A page past the last."),
        },
    ),
    retrieve=extend_schema(
        summary="One of my games, with my view of it", responses={200: s.GameDetailSerializer, **READ_ERRORS}
    ),
)
class GameViewSet(SeatedGameMixin, viewsets.GenericViewSet):
    serializer_class = s.GameSummarySerializer
    pagination_class = GamePagination
    lookup_value_converter = "int"
    queryset = Game.objects.none()

    def get_permissions(self):
        if self.action == "create":  # anyone signed in, as on the web
            return [IsAuthenticated()]
        if self.action in ORDER_ACTIONS:
            extra = [MayGiveOrders()]
        elif self.action in UMPIRE_ACTIONS:
            extra = [IsUmpire()]
        else:
            extra = [HoldsSeat()]
        return [IsAuthenticated(), *extra]

    def _body(self, serializer_class, game: Game) -> dict:
        sides = tuple(catalog.get(game.ruleset).sides)
        raw_side = self.request.data.get("side") if isinstance(self.request.data, dict) else None
        if "side" in serializer_class().fields and raw_side in sides:
            # A player naming another side is refused as such, whatever else is wrong.
            self._acting_side(raw_side)
        context = {"request": self.request, "view": self, "sides": sides}
        ser = serializer_class(data=self.request.data, context=context)
        ser.is_valid(raise_exception=True)
        return ser.validated_data

    def _acting_side(self, side: str | None) -> str:
        """The side a command acts for: players only their own, the umpire any named side."""
        if self.viewer.is_umpire:
            if not side:
                raise ValidationError({"side": [_("the umpire must name the side to act for")]})
            return side
        if side and side != self.viewer.side:
            raise PermissionDenied(
                _("you play %(mine)s; you cannot act for %(side)s")
                % {"mine": pgettext("side", self.viewer.side), "side": pgettext("side", side)}
            )
        return self.viewer.side

    # --- reading ----------------------------------------------------------

    def list(self, request):
        # Built without loading or folding any game (campaigns.listing): the cost of a page does not
        # grow with the games' logs.
        games = self.paginate_queryset(self.get_queryset())
        out = [_summary(row.game, row.turn, row.viewer) for row in listing.rows(request.user, games)]
        return self.get_paginated_response(s.GameSummarySerializer(out, many=True).data)

    @extend_schema(
        summary="Create a game and invite its seats",
        description="As the web's new-game form: the umpire, players and observers named (by username, or by "
        "an address they confirmed) are invited; your own seats are taken at once. Turn 1 opens "
        "when every player and the umpire have accepted (POST /api/seats/{id}/accept/). The game "
        "is returned with its roster; you can read it under /api/games/{id}/ once you hold a seat.",
        request=creation.NewGameSerializer,
        responses={201: creation.NewGameResultSerializer, 400: CREATE_ERROR, 401: NO_AUTH},
    )
    def create(self, request):
        ser = creation.NewGameSerializer(data=request.data, context={"request": request})
        if not ser.is_valid():
            return Response(creation.flat_errors(ser.errors), status=status.HTTP_400_BAD_REQUEST)
        try:
            game = creation.create(ser.validated_data, request.user)
        except creation.CreateFailed as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            creation.NewGameResultSerializer(creation.result(game)).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": reverse("api-game-detail", args=[game.pk])},
        )

    def etag_more(self, game: Game) -> tuple:
        if self.action != "retrieve":
            return ()
        # The roster is made from the seats (with their users' names) and the game's first event,
        # which never changes: the seats are in the key.
        seats = Seat.objects.filter(game_id=game.pk).order_by("pk")
        return tuple(seats.values_list("pk", "role", "side", "status", "user_id", "user__username"))

    def retrieve(self, request, pk=None):
        unchanged = self.not_modified()
        if unchanged is not None:
            return unchanged
        game = self.get_object()
        _, view = self.my_view(game)
        return Response(
            s.represent(
                s.GameDetailSerializer,
                {**_summary(game, view["turn"], self.viewer), "view": view, "roster": invitations.roster(game)},
            )
        )

    @extend_schema(summary="My view of the game", responses={200: s.GameViewSerializer, **READ_ERRORS})
    @action(detail=True, methods=["get"])
    def view(self, request, pk=None):
        unchanged = self.not_modified()
        if unchanged is not None:
            return unchanged
        game = self.get_object()
        _, view = self.my_view(game)
        return Response(s.represent(s.GameViewSerializer, view))

    @extend_schema(
        summary="The events I may see, oldest first",
        description="Numbered 1, 2, 3... in your own view of the log (`seq`; the umpire's are the log's "
        "own). Follow `next` until it is null; keep the last page's `cursor` and pass it back "
        "as `cursor` later to get only what is new. Cursors are opaque and signed, and only "
        "work for the seat and game they were given for.",
        responses={200: s.EventSerializer(many=True), 400: INVALID, **READ_ERRORS},
    )
    @action(detail=True, methods=["get"], pagination_class=ViewerLogPagination)
    def events(self, request, pk=None):
        game = self.get_object()
        self.game = game
        state = gamelog.load(game).state
        page = self.paginate_queryset(viewing.visible_events(game, state, self.viewer))
        data = s.EventSerializer(page, many=True, context={"game": game}).data
        return self.get_paginated_response(data)

    # --- players (and the umpire on a side's behalf) --------------------------

    @extend_schema(
        summary="Send a side's orders for the open turn",
        description="The latest orders before the turn closes count. Orders with any error are refused "
        "whole (400 with per-line errors) and the orders accepted before stay in force.",
        request=s.OrdersRequestSerializer,
        responses={201: s.OrdersAcceptedSerializer, 400: ORDERS_ERROR, 409: CONFLICT, 429: ORDERS_ERROR, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def orders(self, request, pk=None):
        game = self.get_object()
        data = self._body(s.OrdersRequestSerializer, game)
        side = self._acting_side(data.get("side"))
        source = "umpire" if self.viewer.is_umpire else "api"
        try:
            result = commands.submit_orders(
                game.pk,
                side,
                data["text"],
                source=source,
                by=request.user.get_username(),
                ready=data["ready"],
                command=self.viewer.command,
            )
        except TurnError as exc:
            return _turn_error(exc)
        if result.retry_after:  # the seat's rate (campaigns/ratelimit.py): nothing was taken
            return Response(
                {"accepted": False, "errors": _line_errors(result.errors), "retry_after": result.retry_after},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(result.retry_after)},
            )
        if not result.accepted:
            return Response(
                {"accepted": False, "errors": _line_errors(result.errors)}, status=status.HTTP_400_BAD_REQUEST
            )
        return Response({"accepted": True, "closed": result.closed}, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Mark a side ready (or not ready)",
        request=s.ReadyRequestSerializer,
        responses={200: s.ReadyResultSerializer, 400: INVALID, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def ready(self, request, pk=None):
        game = self.get_object()
        data = self._body(s.ReadyRequestSerializer, game)
        side = self._acting_side(data.get("side"))
        try:
            closed = commands.set_ready(game.pk, side, data["ready"], command=self.viewer.command)
        except TurnError as exc:
            return _turn_error(exc)
        return Response({"closed": closed})

    # --- the umpire -------------------------------------------------------

    @extend_schema(
        summary="Umpire: approve and publish a turn's results",
        request=s.ApproveRequestSerializer,
        responses={200: s.ApproveResultSerializer, 400: INVALID, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        game = self.get_object()
        data = self._body(s.ApproveRequestSerializer, game)
        try:
            commands.approve(game.pk, data["turn"], data.get("note", ""))
        except TurnError as exc:
            return _turn_error(exc)
        return Response({"turn": data["turn"], "published": True})

    @extend_schema(
        summary="Umpire: void pending results and adjudicate again with amended orders",
        description="The same sealed dice seed is used, so only the orders change. The new results "
        "await approval again.",
        request=s.AmendRequestSerializer,
        responses={200: s.AmendResultSerializer, 400: ORDERS_ERROR, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def amend(self, request, pk=None):
        game = self.get_object()
        data = self._body(s.AmendRequestSerializer, game)
        try:
            errors = commands.amend(game.pk, data["turn"], dict(data["orders"]), data["reason"])
        except TurnError as exc:
            return _turn_error(exc)
        if errors:
            return Response({"accepted": False, "errors": _line_errors(errors)}, status=status.HTTP_400_BAD_REQUEST)
        return Response({"accepted": True})

    @extend_schema(
        summary="Umpire: rule through the umpire's desk",
        description="Umpire-only orders the rule set turns into result events (narrative for a side, an early "
        "reveal, a ruling with its reason...). With results awaiting approval they join them; "
        "otherwise they apply at once. Any wrong line rejects the whole text.",
        request=s.RulingRequestSerializer,
        responses={200: s.RulingResultSerializer, 400: ORDERS_ERROR, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def ruling(self, request, pk=None):
        game = self.get_object()
        data = self._body(s.RulingRequestSerializer, game)
        try:
            count, errors = rulings.rule(game.pk, data["text"])
        except TurnError as exc:
            return _turn_error(exc)
        if errors:
            return Response({"accepted": False, "errors": _line_errors(errors)}, status=status.HTTP_400_BAD_REQUEST)
        return Response({"accepted": True, "events": count})

    @extend_schema(
        summary="Umpire: close the open turn now",
        description="Sides without orders get the rule set's default orders; adjudication follows.",
        request=s.CloseRequestSerializer,
        responses={200: s.CloseResultSerializer, 400: INVALID, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        game = self.get_object()
        data = self._body(s.CloseRequestSerializer, game)
        number = data.get("turn") or game.turn_number
        if not commands.close_turn(game.pk, "closed by the umpire", turn_number=number):
            return Response({"detail": f"turn {number} is not open"}, status=status.HTTP_409_CONFLICT)
        return Response({"closed": True, "turn": number})

    @extend_schema(
        summary="Umpire: move the open turn's deadline",
        description="Later or earlier, given as a new time or as hours to move the present deadline by. Every "
        "player is told by mail, in their own time zone, with the note; reminders start afresh.",
        request=s.DeadlineRequestSerializer,
        responses={200: s.DeadlineResultSerializer, 400: INVALID, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def deadline(self, request, pk=None):
        game = self.get_object()
        data = self._body(s.DeadlineRequestSerializer, game)
        new = data.get("deadline")
        try:
            if new is None:
                new = deadlines.moved_deadline(game.pk, data["turn"], data["hours"])
            deadlines.set_deadline(game.pk, data["turn"], new, data["note"])
        except TurnError as exc:
            return _turn_error(exc)
        return Response({"turn": data["turn"], "deadline": new})

    @extend_schema(
        summary="Umpire: adjudicate a failed turn again",
        description="A turn whose adjudication raised is held (its status adjudication_failed, the error in "
        "the umpire's view of the turn); this adjudicates it again from the same orders and sealed seed.",
        request=None,
        responses={200: s.CloseResultSerializer, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def retry(self, request, pk=None):
        game = self.get_object()
        try:
            number = failures.retry(game.pk, by=request.user.get_username())
        except TurnError as exc:
            return _turn_error(exc)
        return Response({"closed": True, "turn": number})

    @extend_schema(
        methods=["GET"],
        summary="Umpire: the rules version the game is played by, and the newer ones",
        responses={200: s.RulesVersionSerializer, **READ_ERRORS},
    )
    @extend_schema(
        methods=["POST"],
        summary="Umpire: move the game to a newer version of its rules",
        description="Only at a turn boundary: while the turn is open and no side has ordered in it. "
        "Everyone sees the change in the game's log; later turns are adjudicated by the new version, "
        "earlier ones stay verified by theirs.",
        request=s.RulesVersionRequestSerializer,
        responses={200: s.RulesVersionSerializer, 400: INVALID, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], url_path="rules-version")
    def rules_version(self, request, pk=None):
        game = self.get_object()
        if request.method == "POST":
            data = self._body(s.RulesVersionRequestSerializer, game)
            try:
                state = versions.change_rules_version(
                    game.pk, data["version"], by=request.user.get_username(), reason=data["reason"]
                )
            except TurnError as exc:
                return _turn_error(exc)
        else:
            state = gamelog.load(game.pk).state
        return Response(asdict(versions.version_info(state)))

    # -- campaigns of linked battles (campaigns/battles) --------------------------------------------

    @extend_schema(
        summary="A strategic game's battles and its campaign standings",
        description="Every battle the game joined (Civil War with the battles option): where, who, how it "
        "stands, the game it is fought in and the result carried back. Only what the strategic game shows "
        "every seat.",
        responses={200: s.BattlesSerializer, **READ_ERRORS},
    )
    @action(detail=True, methods=["get"])
    def battles(self, request, pk=None):
        game = self.get_object()
        listed = summary.battles_of(game)
        table = summary.standings(game, listed, tuple(catalog.get(game.ruleset).sides))
        return Response({"battles": listed, "standings": table["sides"], "fought": table["fought"]})

    @extend_schema(
        summary="Umpire: how a battle waiting on you is fought",
        description="In a rule set that can fight it (a new game with the same players begins at once), or "
        "'rules': the strategic rules decide it now.",
        request=s.BattleChoiceSerializer,
        responses={200: s.BattleSerializer, 400: INVALID, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="battles/<str:battle>/choose")
    def battle_choose(self, request, pk=None, battle=None):
        game = self.get_object()
        data = self._body(s.BattleChoiceSerializer, game)
        try:
            linking.choose(game, str(battle), data["ruleset"])
        except TurnError as exc:
            return _turn_error(exc)
        return Response(_battle_or_404(game, str(battle)))

    @extend_schema(
        summary="Umpire: pass a finished battle's result on, as it is or amended",
        description="With the game's battle_review setting, a battle's result waits for you. Give winner "
        "and/or lost to amend it (recorded with the note and shown to the players); give neither to pass it on.",
        request=s.BattleReviewSerializer,
        responses={200: s.BattleSerializer, 400: INVALID, 409: CONFLICT, **READ_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="battles/<str:battle>/review")
    def battle_review(self, request, pk=None, battle=None):
        game = self.get_object()
        data = self._body(s.BattleReviewSerializer, game)
        amended = {k: data[k] for k in ("winner", "lost") if k in data}
        try:
            linking.review(game, str(battle), amended or None, note=data.get("note", ""))
        except TurnError as exc:
            return _turn_error(exc)
        return Response(_battle_or_404(game, str(battle)))

    @extend_schema(
        summary="Umpire: every seat's mail that comes back undelivered",
        description="Each seat with its mail health (null: nothing ever came back). A failing seat's mail is "
        "held back until its player confirms an address; its orders still count.",
        responses={200: s.GameMailHealthSerializer, **READ_ERRORS},
    )
    @action(detail=True, methods=["get"], url_path="mail-health")
    def mail_health(self, request, pk=None):
        game = self.get_object()
        seats = game.seats.filter(status=Seat.Status.ACTIVE).order_by("id")
        rows = [{"seat": x.pk, "role": x.role, "side": x.side, "mail_health": health.summary(x)} for x in seats]
        return Response({"seats": rows})


def _battle_or_404(game: Game, battle: str) -> dict:
    found = next((b for b in summary.battles_of(game) if b["id"] == battle), None)
    if found is None:
        raise Http404("No such battle in this game.")
    return found


class SVGRenderer(BaseRenderer):
    media_type = "image/svg+xml"
    format = "svg"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode(self.charset)
        return JSONRenderer().render(data)


class GameMapView(SeatedGameMixin, GenericAPIView):
    """The board as I may see it, as an SVG image."""

    permission_classes = [IsAuthenticated, HoldsSeat]
    renderer_classes = [JSONRenderer, SVGRenderer]  # JSON first: errors come back as JSON
    queryset = Game.objects.none()
    serializer_class = None

    def conditional(self) -> bool:
        return True

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response) and response.status_code >= 400:
            # Errors are JSON even when the client only accepts SVG.
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
        return response

    @extend_schema(
        summary="My view of the board as SVG",
        operation_id="games_map_svg",
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={
            (200, "image/svg+xml"): OpenApiResponse(OpenApiTypes.STR, description="An SVG image."),
            (401, "application/json"): NO_AUTH,
            (403, "application/json"): NOT_AUTH,
            (404, "application/json"): NOT_FOUND,
        },
    )
    def get(self, request, pk=None):
        unchanged = self.not_modified()
        if unchanged is not None:
            return unchanged
        game = self.get_object()
        _, view = self.my_view(game)
        svg = draw_map(catalog.get(game.ruleset), view["board"])  # in the user's language
        return maps.svg_response(svg)


@extend_schema_view(list=extend_schema(summary="My seats", responses={200: s.SeatSerializer(many=True), 401: NO_AUTH}))
class SeatViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    lookup_value_converter = "int"
    serializer_class = s.SeatSerializer
    permission_classes = [IsAuthenticated]
    queryset = Seat.objects.none()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Seat.objects.none()
        return Seat.objects.filter(user=self.request.user).select_related("game").order_by("-game_id", "pk")

    def _answer(self, request, accept: bool):
        seat = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        try:
            seat = creation.answer(seat, request.user, accept)
        except invitations.InvitationError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        return Response(s.SeatSerializer(seat).data)

    @extend_schema(
        summary="Accept my invitation to a seat",
        description="The seat's mail goes to the address you confirmed (confirm one first). When the last "
        "player or the umpire accepts, turn 1 opens.",
        request=None,
        responses={
            200: s.SeatSerializer,
            401: NO_AUTH,
            404: OpenApiResponse(s.ErrorSerializer, description=("No such seat among yours.")),
            409: OpenApiResponse(
                s.ErrorSerializer,
                description=("Not an open invitation (answered, withdrawn or expired), or no confirmed address yet."),
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        return self._answer(request, True)

    @extend_schema(
        summary="Decline my invitation to a seat",
        description="The seat becomes free; the game's creator and umpire are told and may invite someone else.",
        request=None,
        responses={
            200: s.SeatSerializer,
            401: NO_AUTH,
            404: OpenApiResponse(s.ErrorSerializer, description=("No such seat among yours.")),
            409: OpenApiResponse(
                s.ErrorSerializer, description=("Not an open invitation (answered, withdrawn or expired).")
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        return self._answer(request, False)
