"""GET /api/campaigns/<id>/: a campaign as one of its seats sees it (issue 28): the games of it the
requesting user sits in, each strategic game's battles and standings, and the campaign's record as a
timeline; the web's campaign page in JSON (campaigns/web/campaign.py). 404 without a seat in it."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns.battles import summary
from campaigns.i18n import activate_for
from campaigns.turns import agenda
from rules import catalog
from rules.core.protocol import Strategic

from .serializers import BattleSerializer, StandingSerializer
from .views import NO_AUTH, NOT_FOUND


class CampaignGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    role = serializers.CharField(help_text="Your seat in it: player, umpire or observer.")
    side = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text="active or finished.")
    turn = serializers.IntegerField()


class WarSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The strategic game's id.")
    battles = BattleSerializer(many=True)
    standings = serializers.DictField(child=StandingSerializer())
    fought = serializers.IntegerField()


class RecordEntrySerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    battle = serializers.CharField()
    kind = serializers.ChoiceField(choices=["joined", "spawned", "finished", "resolved"])
    game = serializers.IntegerField(allow_null=True, help_text="The battle's game, once it is fought.")
    ruleset = serializers.CharField(required=False)
    winner = serializers.CharField(required=False, allow_null=True)
    by = serializers.CharField(required=False, allow_null=True)


class CampaignSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.UUIDField()
    name = serializers.CharField()
    description = serializers.CharField()
    games = CampaignGameSerializer(many=True)
    wars = WarSerializer(many=True)
    timeline = RecordEntrySerializer(many=True)


class CampaignView(GenericAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = CampaignSerializer

    @extend_schema(
        summary="A campaign as you see it",
        description="The games of it you sit in, each strategic game's battles and standings, and the "
        "campaign's record of battles. Only for a seat in one of its games.",
        parameters=[OpenApiParameter("campaign_id", int, OpenApiParameter.PATH, description="The campaign's id.")],
        responses={200: CampaignSerializer, 401: NO_AUTH, 404: NOT_FOUND},
    )
    def get(self, request, campaign_id: str):
        activate_for(request, request.user)
        # the path takes any text, so that a wrong id is this view's JSON 404, not the resolver's page
        wanted = int(campaign_id) if campaign_id.isascii() and campaign_id.isdigit() else None
        mine = agenda.items(request.user, battles_of=summary.battles_of)
        listed = [i for i in mine if i.game.campaign_id == wanted]
        if not listed:  # no such campaign, or no seat in it: the same answer
            raise Http404("No such campaign among yours.")
        campaign = listed[0].game.campaign
        strategic = [i.game for i in listed if isinstance(catalog.get(i.game.ruleset), Strategic)]
        wars = []
        for game in strategic:
            battles = summary.battles_of(game)
            if not battles and not summary.fights_battles(game):
                continue
            table = summary.standings(game, battles, tuple(catalog.get(game.ruleset).sides))
            wars.append({"game": game.pk, "battles": battles, "standings": table["sides"], "fought": table["fought"]})
        timeline = [
            {k: v for k, v in e.items() if k in RecordEntrySerializer().fields}
            for e in summary.timeline(campaign, {str(g.uid) for g in strategic})
        ]
        games = [
            {
                "id": i.game.pk,
                "name": i.game.name,
                "ruleset": i.game.ruleset,
                "role": i.viewer.role,
                "side": i.viewer.side,
                "status": i.game.status,
                "turn": i.game.turn_number,
            }
            for i in listed
        ]
        body = {
            "id": campaign.pk,
            "uid": campaign.uid,
            "name": campaign.name,
            "description": campaign.description,
            "games": games,
            "wars": wars,
            "timeline": timeline,
        }
        return Response(CampaignSerializer(body).data)
