"""A new game through the API: the request's shape, its checks, and the call into the same
``creation.create_game`` the web's new-game form makes (so naming someone only invites them:
``campaigns.invitations``), plus the invited user's answer to an invitation.

Who may do what: any signed-in user may create a game (as on the web); they pick a campaign
they created or hold a seat in, or name a new one. The invitees are named by username or by
the address they confirmed themselves (``Profile.verified_email``). Only the invited user can
accept or decline their own invitation (anyone else gets 404: the seat is looked up among the
requesting user's).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.battles import linking
from campaigns.i18n import render
from campaigns.models import Campaign, Game, Profile, Seat
from campaigns.turns import creation, invitations, lifecycle
from campaigns.turns.errors import TurnError
from campaigns.turns.press import PRESS_CHOICES, PRESS_DEFAULT
from rules import catalog
from rules.core.i18n import message_of
from rules.core.protocol import RulesError

from .serializers import ALL_SIDES, NO_NUL, NOT_BLANK, RosterSerializer, StrictSerializer


class InviteeSerializer(StrictSerializer):
    """Someone to invite: by username or by the mail address they confirmed (exactly one)."""

    exactly_one_of = ("username", "email")
    username = serializers.CharField(max_length=150, required=False, validators=[NOT_BLANK])
    email = serializers.EmailField(required=False, help_text="An address its user confirmed on their settings page.")

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if ("username" in attrs) == ("email" in attrs):
            raise serializers.ValidationError(
                {"non_field_errors": [_("name the invitee by username or by email, one of the two")]}
            )
        # Who the invitee is is looked up only once the whole request is sound (``with_users``):
        # a request refused for another reason must not tell whether an address is confirmed (issue 29).
        return attrs


def with_users(attrs: dict) -> dict:
    """The request's invitees with their users; a ValidationError naming each one that is unknown."""
    errors: dict[str, object] = {}
    for role in ("umpire", "players", "observers"):
        entries = attrs[role] if isinstance(attrs[role], list) else [attrs[role]]
        wrong = {}
        for i, entry in enumerate(entries):
            try:
                entry["user"] = find_user(entry)
            except serializers.ValidationError as exc:
                wrong[str(i)] = exc.detail
        if wrong:
            errors[role] = wrong if isinstance(attrs[role], list) else wrong["0"]
    if errors:
        raise serializers.ValidationError(errors)
    return attrs


def find_user(attrs: dict):
    """The user a username or a confirmed address names; a ValidationError saying which is unknown."""
    User = get_user_model()
    if "username" in attrs:
        name = attrs["username"].strip()
        user = User.objects.filter(**{User.USERNAME_FIELD: name}).first()
        if user is None:
            raise serializers.ValidationError(
                {"username": [_("there is no user called %(name)s") % {"name": repr(name[:150])}]}
            )
        return user
    # Only confirmed addresses count: an unconfirmed User.email could be anyone's.
    profile = Profile.objects.filter(verified_email__iexact=attrs["email"]).select_related("user").first()
    if profile is None:
        raise serializers.ValidationError(
            {
                "email": [
                    _(
                        "no user has confirmed this address; invite them by username, "
                        "or ask them to confirm it on their settings page"
                    )
                ]
            }
        )
    return profile.user


class PlayerInviteeSerializer(InviteeSerializer):
    side = serializers.ChoiceField(choices=ALL_SIDES, help_text="The side this player holds.")
    command = serializers.CharField(
        max_length=30,
        required=False,
        allow_blank=True,
        default="",
        validators=[NO_NUL],
        help_text="Several players a side (rule sets with commands): the command this seat orders, or "
        "'commander' for the whole side. Leave out for a side's only player.",
    )


class SettingsSerializer(StrictSerializer):
    """The game's settings; any left out take the defaults shown."""

    D = lifecycle.DEFAULT_SETTINGS
    deadline_hours = serializers.FloatField(min_value=0.01, max_value=24 * 365, default=D["deadline_hours"])
    decision_deadline_hours = serializers.FloatField(
        min_value=0.01, max_value=24 * 365, default=D["decision_deadline_hours"]
    )
    ready_delay_seconds = serializers.IntegerField(
        min_value=0, max_value=7 * 24 * 3600, default=D["ready_delay_seconds"]
    )
    grace_hours = serializers.FloatField(min_value=0, max_value=168, default=D["grace_hours"])
    require_approval = serializers.BooleanField(
        default=D["require_approval"], help_text="The umpire approves every turn's results."
    )
    absence_days = serializers.IntegerField(min_value=0, max_value=365, default=D["absence_days"])
    umpire_plays = serializers.BooleanField(
        default=D["umpire_plays"], help_text="Only then may the umpire also hold a player seat."
    )
    press = serializers.ChoiceField(
        choices=[c for c, _ in PRESS_CHOICES],
        default=PRESS_DEFAULT,
        help_text="Who a player may write to through the game's mail address.",
    )
    # campaigns of linked battles (campaigns/battles): a strategic game with the battles option only
    battle_ruleset = serializers.ChoiceField(
        choices=[*linking.tactical_names(), linking.RULES, linking.ASK],
        default=linking.DEFAULT_RULESET,
        help_text="How the battles a strategic game joins are fought: in this rule set (a new game with the "
        "same players), by the strategic rules ('rules'), or as the umpire chooses each time ('ask').",
    )
    battle_review = serializers.BooleanField(
        default=False, help_text="A battle's result waits for the umpire before it changes the strategic game."
    )


@extend_schema_field({"type": "object", "additionalProperties": {"oneOf": [{"type": "boolean"}, {"type": "string"}]}})
class OptionsField(serializers.DictField):
    """{option: true/false or one of its choices}: the schema says so (a DictField's cannot)."""


class NewGameSerializer(StrictSerializer):
    exactly_one_of = ("campaign_id", "campaign_name")  # the schema says so (api.schema)
    name = serializers.CharField(max_length=200, validators=[NOT_BLANK])
    ruleset = serializers.ChoiceField(choices=catalog.names())
    scenario = serializers.CharField(
        max_length=100,
        required=False,
        allow_null=True,
        default=None,
        validators=[NO_NUL],
        help_text="One of the rule set's shipped scenarios (GET the rule set's `scenarios()`); left out: its default.",
    )
    options = OptionsField(
        child=serializers.JSONField(),
        required=False,
        default=dict,
        help_text="The rule set's game options chosen: {name: true | a choice}.",
    )
    campaign_id = serializers.IntegerField(required=False, help_text="A campaign you created or play in.")
    campaign_name = serializers.CharField(
        max_length=200, required=False, validators=[NOT_BLANK], help_text="Or: the name of a new campaign."
    )
    umpire = InviteeSerializer()
    players = PlayerInviteeSerializer(many=True, allow_empty=False, min_length=1, max_length=50)
    observers = InviteeSerializer(many=True, required=False, default=list, max_length=50)
    settings = SettingsSerializer(required=False)
    commands = serializers.DictField(
        child=serializers.DictField(
            child=serializers.ListField(child=serializers.CharField(max_length=60, validators=[NOT_BLANK]))
        ),
        required=False,
        default=dict,
        help_text="Several players a side: {side: {command: [its groups and guns]}} laid over the scenario's.",
    )

    def validate_scenario(self, value):
        ruleset = (
            catalog.get(self.initial_data.get("ruleset"))
            if self.initial_data.get("ruleset") in catalog.names()
            else None
        )
        if value and ruleset is not None:
            known = [name for name, _ in ruleset.scenarios()]
            if value not in known:
                raise serializers.ValidationError(
                    _("%(ruleset)s has no scenario %(name)s; its scenarios: %(known)s")
                    % {"ruleset": ruleset.title, "name": repr(value[:100]), "known": ", ".join(known) or _("none")}
                )
        return value

    def validate_options(self, value):
        wrong = sorted(name for name, v in value.items() if not isinstance(v, (bool, str)))
        if wrong:
            raise serializers.ValidationError(
                _("%(options)s: an option is true or false, or one of its choices (a string)")
                % {"options": ", ".join(wrong)[:200]}
            )
        return value

    def validate_campaign_id(self, value):
        user = self.context["request"].user
        mine = Campaign.objects.filter(Q(created_by=user) | Q(games__seats__user=user), pk=value)
        if not mine.exists():
            raise serializers.ValidationError(_("no such campaign among those you created or play in"))
        return value

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if ("campaign_id" in attrs) == ("campaign_name" in attrs):
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        _("give campaign_id (an existing campaign) or campaign_name (a new one), one of the two")
                    ]
                }
            )
        rs = catalog.get(attrs["ruleset"])
        wrong = sorted({p["side"] for p in attrs["players"]} - set(rs.sides))
        if wrong:
            raise serializers.ValidationError(
                {
                    "players": [
                        _("%(side)s is not a side of %(ruleset)s: the sides are %(sides)s")
                        % {"side": ", ".join(wrong), "ruleset": rs.title, "sides": ", ".join(rs.sides)}
                    ]
                }
            )
        return with_users(attrs)


def flat_errors(detail, path: str = "") -> dict[str, list[str]]:
    """Nested serializer errors ({"players": {"0": {"username": [...]}}}) as one level, the field's
    path as key ({"players[0].username": [...]}): the shape every 400 of the API has."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            key = str(key)
            sub = f"{path}[{key}]" if key.isdigit() and path else f"{path}.{key}" if path else key
            for k, v in flat_errors(value, sub).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(detail, list) and all(isinstance(v, str) for v in detail):
        out[path or "non_field_errors"] = [str(v) for v in detail]
    elif isinstance(detail, list):
        for i, value in enumerate(detail):
            for k, v in flat_errors(value, f"{path}[{i}]").items():
                out.setdefault(k, []).extend(v)
    else:
        out[path or "non_field_errors"] = [str(detail)]
    return out


def seats_of(data: dict) -> list[dict]:
    """The seats ``creation.create_game`` takes, in the web form's shape."""
    seats = [{"role": Seat.Role.UMPIRE, "user": data["umpire"]["user"]}]
    seats += [
        {
            "role": Seat.Role.PLAYER,
            "side": p["side"],
            "user": p["user"],
            **({"command": p["command"]} if p.get("command") else {}),
        }
        for p in data["players"]
    ]
    seats += [{"role": Seat.Role.OBSERVER, "user": o["user"]} for o in data["observers"]]
    return seats


class CreateFailed(ValueError):
    """The game could not be created; the message says why (nothing was written)."""


def create(data: dict, user) -> Game:
    """Create the game as its creator ``user``: the seats named are invited, the creator's own taken.
    A new campaign is made in the same transaction, so a refused game leaves none behind."""
    settings = data.get("settings") or SettingsSerializer().to_internal_value({})
    try:
        with transaction.atomic():
            campaign = (
                Campaign.objects.get(pk=data["campaign_id"])
                if "campaign_id" in data
                else Campaign.objects.create(name=data["campaign_name"].strip(), created_by=user)
            )
            return creation.create_game(
                campaign=campaign,
                name=data["name"].strip(),
                ruleset=data["ruleset"],
                seats=seats_of(data),
                settings=dict(settings),
                created_by=user,
                commands=data["commands"] or None,
                scenario=data["scenario"],
                options=data["options"],
            )
    except (TurnError, RulesError) as exc:
        raise CreateFailed(render(message_of(exc))) from exc


class NewGameResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    campaign_id = serializers.IntegerField()
    started = serializers.BooleanField(
        help_text="Turn 1 is open: every player and the umpire hold their seat "
        "(else it opens when the last of them accepts)."
    )
    invited = serializers.ListField(
        child=serializers.CharField(), help_text="Usernames invited (they answer by mail link, web or API)."
    )
    roster = RosterSerializer()


def result(game: Game) -> dict:
    invited = sorted(
        {s.user.get_username() for s in game.seats.filter(status=Seat.Status.INVITED).select_related("user")}
    )
    return {
        "id": game.pk,
        "name": game.name,
        "ruleset": game.ruleset,
        "campaign_id": game.campaign_id,
        "started": game.turn_number > 0,
        "invited": invited,
        "roster": invitations.roster(game),
    }


# --- answering an invitation ------------------------------------------------------


def answer(seat: Seat, user, accept: bool) -> Seat:
    """The invited user accepts or declines, through the same road as the mailed link."""
    token = invitations.token_for(seat)
    return (invitations.accept if accept else invitations.decline)(token, user)
