"""GET /api/me/turns/: what waits on me in every game where I hold a seat, nearest deadline first (the
web's "my turns", issue 28 point 5; both are campaigns/turns/agenda.py's). Each game is seen through
my own seat's view of its turn: my own side's orders state, never another side's."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.battles import summary
from campaigns.i18n import activate_for
from campaigns.models import Seat
from campaigns.turns import agenda
from campaigns.turns.localtime import local_time

from .views import NO_AUTH

KIND_HELP = (
    "What waits on you: `orders` (your side orders in the open turn and has not), `not_ready` (orders "
    "sent, not marked ready), `ready` (marked ready: nothing to do before the deadline, though you may "
    "still change them), `approve` (umpire: results await your approval), `failed` (umpire: the "
    "adjudication failed and is held), `battle_choice` (umpire: a battle awaits your choice of how it is "
    "fought), `battle_review` (umpire: a fought battle's result awaits your review)."
)


class WaitSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[(k, k) for k in agenda.KINDS], help_text=KIND_HELP)
    text = serializers.CharField(help_text="The same in a few words, in your language.")
    side = serializers.CharField(allow_null=True, help_text="Your own side it concerns (orders, not_ready, ready).")
    battle = serializers.CharField(allow_null=True, help_text="The battle's id in the strategic game (battles).")
    place = serializers.CharField(allow_null=True, help_text="The battle's place, by name (battles).")


class MyTurnSerializer(serializers.Serializer):
    """One game of mine and what waits on me in it."""

    id = serializers.IntegerField(help_text="The game's id: /api/games/{id}/.")
    name = serializers.CharField()
    ruleset = serializers.CharField()
    campaign = serializers.CharField(help_text="Campaign name.")
    campaign_id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=Seat.Role.choices, help_text="My role in the game.")
    side = serializers.CharField(allow_null=True, help_text="My side (players only).")
    played = serializers.ListField(
        child=serializers.CharField(), help_text="The sides I play (an umpire who also plays holds one too)."
    )
    game_status = serializers.CharField(help_text="active or finished.")
    turn_number = serializers.IntegerField()
    turn_status = serializers.CharField(allow_blank=True)
    turn_kind = serializers.CharField()
    turn_sides = serializers.ListField(child=serializers.CharField(), help_text="The sides that order this turn.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="The open turn's deadline (UTC); null when no turn is open or it has none."
    )
    late_until = serializers.DateTimeField(
        allow_null=True, help_text="After a passed deadline, the end of the grace for the late sides."
    )
    deadline_local = serializers.CharField(
        allow_blank=True, help_text="The deadline in my time zone, as the pages show it."
    )
    to_do = serializers.BooleanField(help_text="Whether something waits on me (not only `ready`).")
    waits = WaitSerializer(many=True)
    waiting_for = serializers.ListField(
        child=serializers.CharField(),
        help_text="When none of my sides orders in the open turn: the sides it waits for (public on the turn panel).",
    )


class MyTurnsSerializer(serializers.Serializer):
    timezone = serializers.CharField(help_text="My time zone (settings page), in which `deadline_local` is given.")
    turns = MyTurnSerializer(many=True, help_text="Nearest deadline first; games without one last.")


def _turn(item: agenda.Item, tz: str) -> dict:
    turn, viewer = item.turn, item.viewer
    return {
        "id": item.game.pk,
        "name": item.game.name,
        "ruleset": item.game.ruleset,
        "campaign": item.campaign.name,
        "campaign_id": item.campaign.pk,
        "role": viewer.role,
        "side": viewer.side,
        "played": list(item.row.played),
        "game_status": turn["game_status"],
        "turn_number": turn["number"],
        "turn_status": turn["status"],
        "turn_kind": turn["kind"],
        "turn_sides": turn["sides"],
        "deadline": turn["deadline"] if item.deadline else None,
        "late_until": turn.get("late_until") if item.late_until else None,
        "deadline_local": local_time(turn["deadline"], tz) if item.deadline else "",
        "to_do": item.to_do,
        "waits": [
            {"kind": w.kind, "text": w.text, "side": w.side, "battle": w.battle, "place": w.place} for w in item.waits
        ],
        "waiting_for": item.others_to_order,
    }


def _timezone(user) -> str:
    profile = getattr(user, "profile", None)
    return profile.timezone if profile and profile.timezone else "UTC"


class MyTurnsView(GenericAPIView):
    """Every game where I hold a seat, with what waits on me now, nearest deadline first."""

    permission_classes = [IsAuthenticated]
    serializer_class = MyTurnsSerializer

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        activate_for(request, request.user)  # token users are anonymous to the page middleware

    @extend_schema(
        summary="What waits on me in every game, nearest deadline first",
        description="Every game where you hold an accepted seat, across campaigns: the open turn's deadline "
        "(UTC, and in your time zone) and what waits on you (`waits`: your side's orders, readiness; as "
        "umpire, results to approve and battles to choose or review). Seen through your own seat: another "
        "side's orders state is never shown. The same list as the web's My turns page.",
        responses={200: MyTurnsSerializer, 401: NO_AUTH},
    )
    def get(self, request):
        tz = _timezone(request.user)
        listed = agenda.items(request.user, battles_of=summary.battles_of)
        return Response(MyTurnsSerializer({"timezone": tz, "turns": [_turn(i, tz) for i in listed]}).data)
