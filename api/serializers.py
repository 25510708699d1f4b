"""Strict request serializers and documented response shapes.

Response data are always built from ``campaigns.turns.viewing.game_view`` and
``visible_events`` for the requesting viewer; the response serializers here
are a second allow-list on top (unknown keys are dropped) and the schema.
"""

from __future__ import annotations

import functools

from django.core.validators import RegexValidator
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.mailout import health
from campaigns.models import Event, Seat
from campaigns.turns import commands, viewing
from rules import catalog

MAX_ORDERS_CHARS = commands.MAX_ORDERS_CHARS  # the same on every channel
MAX_NOTE_CHARS = 2000
SIDE_MAX = 30  # a side named in an error message is cut to this
# Every rule set's sides: the schema's enum. Whether a side plays in a given game is checked per game.
ALL_SIDES = sorted({side for name in catalog.names() for side in catalog.get(name).sides})
# The schema documents these patterns: text has no NUL character (DRF refuses it in every CharField),
# and where it may not be blank, something besides white space.
# "White space" is what Python strips (str.isspace), spelled out: a schema's \s means something else.
WHITE = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NO_NUL = RegexValidator(r"^[^\x00]*$", "must not contain NUL characters")
NOT_BLANK = RegexValidator(rf"^[^\x00]*[^\x00{WHITE}][^\x00]*$", "must not be blank")


def side_field(help_text: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=ALL_SIDES, required=False, help_text=help_text)


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so typos ("redy") are not silently ignored."""

    def validate(self, attrs):
        unknown = sorted(set(getattr(self, "initial_data", {}) or {}) - set(self.fields))  # additionalProperties: false
        if unknown:
            raise serializers.ValidationError({name: ["unknown field"] for name in unknown})
        return attrs

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["expected a JSON object"]})
        return super().to_internal_value(data)


def _check_side(serializer, side: str) -> str:
    sides = serializer.context.get("sides") or ()
    if side not in sides:
        raise serializers.ValidationError(
            _("unknown side %(side)s; this game's sides are: %(sides)s")
            % {"side": repr(side), "sides": ", ".join(sides)}
        )
    return side


# --- requests ---------------------------------------------------------------


@extend_schema_field(
    {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": False,
        "properties": {
            side: {"type": "string", "minLength": 1, "maxLength": MAX_ORDERS_CHARS, "pattern": NOT_BLANK.regex.pattern}
            for side in ALL_SIDES
        },
    }
)
class SideOrdersField(serializers.DictField):
    """Orders by side: the schema names the sides (a DictField's schema cannot)."""


class OrdersRequestSerializer(StrictSerializer):
    side = side_field(
        "The side the orders are for. Players may leave it out (their own side) and may only "
        "give their own side's orders; the umpire must name the side."
    )
    text = serializers.CharField(
        max_length=MAX_ORDERS_CHARS,
        min_length=1,
        trim_whitespace=True,
        validators=[NOT_BLANK],
        help_text="The orders, one per line, in the rule set's order language.",
    )
    # Ready is never implied (issue 17): a side that sends orders without saying so is not ready.
    ready = serializers.BooleanField(
        default=False,
        help_text="True to mark the side ready with these orders (the turn may then close); omitted or false: "
        "the orders are kept and the side is not ready (it can send more, or POST .../ready/ later).",
    )

    def validate_side(self, value):
        return _check_side(self, value)


class ReadyRequestSerializer(StrictSerializer):
    side = side_field("As for orders: players default to their own side; the umpire must name it.")
    ready = serializers.BooleanField(help_text="True to mark the side ready, false to withdraw it.")

    def validate_side(self, value):
        return _check_side(self, value)


class LoginRequestSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150, min_length=1, validators=[NOT_BLANK])
    password = serializers.CharField(max_length=4096, min_length=1, trim_whitespace=False, validators=[NO_NUL])


class ApproveRequestSerializer(StrictSerializer):
    turn = serializers.IntegerField(min_value=1, help_text="The turn whose results are approved.")
    note = serializers.CharField(
        max_length=MAX_NOTE_CHARS, required=False, allow_blank=True, default="", validators=[NO_NUL]
    )


class AmendRequestSerializer(StrictSerializer):
    turn = serializers.IntegerField(min_value=1, help_text="The turn whose pending results are voided and redone.")
    orders = SideOrdersField(
        child=serializers.CharField(max_length=MAX_ORDERS_CHARS, min_length=1, validators=[NOT_BLANK]),
        allow_empty=False,
        help_text='Amended orders by side, e.g. {"red": "..."}; sides left out keep the orders used.',
    )
    reason = serializers.CharField(
        max_length=MAX_NOTE_CHARS,
        min_length=1,
        validators=[NOT_BLANK],
        help_text="Why the umpire amends (kept in the umpire's log).",
    )

    def validate_orders(self, value):
        for side in value:
            _check_side(self, side[:SIDE_MAX])
        return value


class CloseRequestSerializer(StrictSerializer):
    turn = serializers.IntegerField(
        min_value=1, required=False, help_text="Only close if this is the open turn (guards against double clicks)."
    )


class DeadlineRequestSerializer(StrictSerializer):
    exactly_one_of = ("deadline", "hours")  # the schema says so (api.schema)
    turn = serializers.IntegerField(min_value=1, help_text="The open turn (guards against moving the next one's).")
    deadline = serializers.DateTimeField(required=False, help_text="The new deadline, ISO 8601 with its UTC offset.")
    hours = serializers.FloatField(
        required=False,
        min_value=-24 * 30,
        max_value=24 * 60,
        help_text="Or: move the present deadline by this many hours (negative: earlier).",
    )
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        default="",
        validators=[NO_NUL],
        help_text="One line every player reads with the new deadline.",
    )

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if ("deadline" in attrs) == ("hours" in attrs):
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        "give either deadline or hours, not both"
                        if "deadline" in attrs
                        else "give the new deadline, or hours to move it by"
                    ]
                }
            )
        raw = self.initial_data.get("deadline")
        if isinstance(raw, str) and (parsed := parse_datetime(raw)) is not None and parsed.tzinfo is None:
            raise serializers.ValidationError({"deadline": [_("give the UTC offset, e.g. 2026-12-01T18:00:00+01:00")]})
        return attrs


# --- responses --------------------------------------------------------------


class RulesVersionRequestSerializer(StrictSerializer):
    version = serializers.IntegerField(min_value=1, help_text="The newer version of the game's rules to play by.")
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500, default="", help_text="Told to everyone with the change."
    )


class RulesVersionSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    played_by = serializers.IntegerField(help_text="The version the game is played by now.")
    recorded = serializers.BooleanField(help_text="False for a game created before versions were recorded.")
    newest = serializers.IntegerField(help_text="The newest version this server has.")
    newer = serializers.DictField(child=serializers.CharField(), help_text="{version: what it changed}")


class DeadlineResultSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    deadline = serializers.DateTimeField()


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


class LineErrorSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="1-based line of the orders text; 0 for the orders as a whole.")
    text = serializers.CharField(allow_blank=True)
    message = serializers.CharField()
    side = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="The side whose orders the line belongs to, where a request carries several.",
    )


class OrdersAcceptedSerializer(serializers.Serializer):
    accepted = serializers.BooleanField(help_text="Always true here.")
    closed = serializers.BooleanField(help_text="True if these orders closed the turn (all sides ready).")


class OrdersRejectedSerializer(serializers.Serializer):
    accepted = serializers.BooleanField(help_text="Always false here; the orders accepted before stay in force.")
    errors = LineErrorSerializer(many=True)


class ValidationErrorSerializer(serializers.Serializer):
    """DRF's standard validation error: field name -> list of messages.

    Documentation only; its schema comes from ``api.schema.ValidationErrorExtension``.
    """


class ReadyResultSerializer(serializers.Serializer):
    closed = serializers.BooleanField(help_text="True if this closed the turn.")


class RulingRequestSerializer(StrictSerializer):
    text = serializers.CharField(
        max_length=MAX_ORDERS_CHARS,
        min_length=1,
        validators=[NOT_BLANK],
        help_text=(
            "Umpire's desk orders, one per line (rule sets with a desk, e.g. Kriegspiel: 'note red: ...', "
            "'reveal w3 because ...', 'kill red:i3 because ...'). All or nothing."
        ),
    )


class RulingResultSerializer(serializers.Serializer):
    accepted = serializers.BooleanField()
    events = serializers.IntegerField(
        help_text="Result events written (with the turn awaiting approval, they are published with it)."
    )


class ApproveResultSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    published = serializers.BooleanField()


class AmendResultSerializer(serializers.Serializer):
    accepted = serializers.BooleanField(help_text="True: results voided and re-adjudicated, awaiting approval again.")


class CloseResultSerializer(serializers.Serializer):
    closed = serializers.BooleanField()
    turn = serializers.IntegerField()


class GameInfoSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    title = serializers.CharField()
    sides = serializers.ListField(child=serializers.CharField())


class ViewerSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Seat.Role.choices)
    side = serializers.CharField(allow_null=True)
    command = serializers.CharField(
        allow_null=True, required=False, help_text="Where a side has several players: the command this player orders."
    )


class TurnViewSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField(allow_blank=True)
    kind = serializers.CharField()
    sides = serializers.ListField(child=serializers.CharField(), help_text="Sides that must order this turn.")
    deadline = serializers.DateTimeField(allow_null=True)
    late_until = serializers.DateTimeField(
        allow_null=True, required=False, help_text="After a missed deadline: the grace's end (the game's grace_hours)."
    )
    commitment = serializers.CharField(allow_null=True, help_text="Hash commitment to the turn's sealed dice seed.")
    prompt = serializers.CharField(allow_blank=True)
    ready = serializers.ListField(child=serializers.CharField())
    missed = serializers.DictField(child=serializers.IntegerField())
    game_status = serializers.CharField()
    result = serializers.JSONField(allow_null=True)
    orders = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        help_text="Orders the viewer may see: the umpire sees every side's, a player only their own.",
    )
    pending_results = serializers.IntegerField(required=False, help_text="Umpire only.")
    failure = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="Umpire only: why the turn's adjudication failed (error, where, code), while it is held.",
    )
    # Several players a side (LW-61, KS-9): only for a player of such a side.
    command = serializers.CharField(
        required=False, help_text="The command this player orders ('commander': the whole side)."
    )
    command_units = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="The groups, guns and prisoner groups the command orders now.",
    )
    side_orders = serializers.CharField(
        required=False, allow_blank=True, help_text="The side's orders as merged from its commands' (commander first)."
    )
    conflicts = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Lines that gave way in the merge: {unit, kept, dropped, line}.",
    )
    ready_commands = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The side's commands that are ready."
    )


class GameViewSerializer(serializers.Serializer):
    game = GameInfoSerializer()
    viewer = ViewerSerializer()
    turn = TurnViewSerializer()
    board = serializers.DictField(help_text="The rule set's view of the board for this viewer.")
    preview = serializers.DictField(
        required=False, help_text="Umpire only: the board with results awaiting approval applied."
    )


class GameSummarySerializer(serializers.Serializer):
    """One of my games: built from the game row and my view's turn."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    campaign = serializers.CharField(help_text="Campaign name.")
    campaign_id = serializers.IntegerField()
    status = serializers.CharField()
    turn_number = serializers.IntegerField()
    turn_status = serializers.CharField(allow_blank=True)
    turn_kind = serializers.CharField()
    turn_sides = serializers.ListField(child=serializers.CharField())
    deadline = serializers.DateTimeField(allow_null=True)
    role = serializers.ChoiceField(choices=Seat.Role.choices, help_text="My role in the game.")
    side = serializers.CharField(allow_null=True, help_text="My side (players only).")


class SeatHolderSerializer(serializers.Serializer):
    user = serializers.CharField(allow_null=True, help_text="Username; null for a free (declined) seat.")
    status = serializers.ChoiceField(choices=Seat.Status.choices, help_text="invited seats are not active yet.")


class PlayerSeatSerializer(SeatHolderSerializer):
    side = serializers.CharField()


class ScenarioChosenSerializer(serializers.Serializer):
    name = serializers.CharField(
        allow_null=True, help_text="The scenario's name (null in games older than this record)."
    )
    title = serializers.CharField(allow_null=True)
    options = serializers.ListField(child=serializers.CharField(), help_text="The game options chosen, labelled.")


class RosterSerializer(serializers.Serializer):
    """Who umpires, plays and observes: every seat holder sees the same."""

    umpire_plays = serializers.BooleanField(help_text="The game lets the umpire also hold a player seat.")
    scenario = ScenarioChosenSerializer(help_text="The scenario and game options chosen at creation (public).")
    umpires = SeatHolderSerializer(many=True)
    players = PlayerSeatSerializer(many=True)
    observers = SeatHolderSerializer(many=True)


class GameDetailSerializer(GameSummarySerializer):
    view = GameViewSerializer()
    roster = RosterSerializer()


class MailHealthSerializer(serializers.Serializer):
    """A seat's mail coming back undelivered (campaigns/mailout/health.py)."""

    state = serializers.ChoiceField(choices=["ok", "soft_bounces", "failing"])
    paused = serializers.BooleanField(help_text="Its mail is held back until its player confirms an address.")
    address = serializers.EmailField()
    hard_bounces = serializers.IntegerField()
    soft_bounces_7d = serializers.IntegerField()
    last_status = serializers.CharField(help_text="The last delivery report's status, e.g. 5.1.1.")
    last_diagnostic = serializers.CharField(help_text="What the receiving server said.")
    last_bounce_at = serializers.DateTimeField()
    failing_since = serializers.DateTimeField(allow_null=True)


class SeatSerializer(serializers.ModelSerializer):
    game_name = serializers.CharField(source="game.name", read_only=True)
    ruleset = serializers.CharField(source="game.ruleset", read_only=True)
    mail_health = serializers.SerializerMethodField(help_text="null: no mail to this seat ever came back.")

    class Meta:
        model = Seat
        fields = ["id", "game", "game_name", "ruleset", "role", "side", "email", "status", "mail_health"]
        read_only_fields = fields

    @extend_schema_field(MailHealthSerializer(allow_null=True))
    def get_mail_health(self, obj) -> dict | None:
        return health.summary(obj)


class SeatMailHealthSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    role = serializers.CharField()
    side = serializers.CharField()
    mail_health = MailHealthSerializer(allow_null=True)


class GameMailHealthSerializer(serializers.Serializer):
    seats = SeatMailHealthSerializer(many=True)


class EventSerializer(serializers.ModelSerializer):
    """One event as ``viewing.numbered`` numbered it for the requesting viewer."""

    seq = serializers.IntegerField(
        source="number",
        read_only=True,
        help_text=(
            "The event's place in the log as you see it: 1, 2, 3... without gaps (events you may not see "
            "are not counted). The umpire sees the whole log, so for the umpire this is the log's own seq."
        ),
    )
    text = serializers.SerializerMethodField(help_text="The event in one readable line (or a few).")

    class Meta:
        model = Event
        fields = ["seq", "turn", "type", "audience", "payload", "created_at", "text"]
        read_only_fields = fields

    def get_text(self, obj) -> str:
        return viewing.describe(self.context["game"], obj)


@functools.cache
def _reader(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    return serializer_class()


def represent(serializer_class: type[serializers.Serializer], value) -> dict:
    """``serializer_class(value).data`` without making the serializer again: DRF deep-copies every
    declared field, nested ones included, for each instance it makes, about a sixth of a poll's
    profile (issue 18). Representing reads the fields and changes nothing in them, so one instance
    per class (per process) serves every request; only for serializers without context."""
    return _reader(serializer_class).to_representation(value)


# -- campaigns of linked battles (campaigns/battles) ----------------------------------------------


class BattlePlaceSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The strategic map's point (Civil War: a city or a road).")
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["town", "crossing", "open", "hills"], help_text="The ground fought on.")


class BattleResultSerializer(serializers.Serializer):
    winner = serializers.CharField(allow_null=True, help_text="The side that won; null: neither (the defender holds).")
    lost = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), help_text="The strategic units each side lost."
    )
    by = serializers.CharField(
        allow_null=True, help_text="table, rules or umpire (null while the result awaits the umpire's review)."
    )
    amended = serializers.DictField(
        allow_null=True, help_text="The umpire's amendment: {from, to, note} (null if passed on as it was)."
    )


class BattleSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The strategic game's name for the battle (B1, B2...).")
    place = BattlePlaceSerializer()
    attacker = serializers.CharField()
    defender = serializers.CharField()
    forces = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    joined_turn = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(
        choices=["joined", "fighting", "finished", "resolved"],
        help_text="joined: awaiting the umpire's choice; fighting: its game is being played; finished: its "
        "result awaits the umpire's review; resolved: the result is in the strategic game.",
    )
    waiting_for_umpire = serializers.BooleanField()
    ruleset = serializers.CharField(allow_null=True, help_text="The rule set it is fought in (null: not on a table).")
    game = serializers.IntegerField(allow_null=True, help_text="The battle game's id (GET /api/games/<id>/).")
    result = BattleResultSerializer(allow_null=True)


class StandingSerializer(serializers.Serializer):
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()
    units_lost = serializers.IntegerField()


class BattlesSerializer(serializers.Serializer):
    battles = BattleSerializer(many=True)
    standings = serializers.DictField(child=StandingSerializer(), help_text="{side: battles won, lost, drawn...}")
    fought = serializers.IntegerField(help_text="Battles whose result is in the strategic game.")


class BattleChoiceSerializer(StrictSerializer):
    ruleset = serializers.ChoiceField(
        choices=[],  # filled in below: the rule sets that can fight battles, and "rules"
        help_text="A rule set that can fight battles, or 'rules': the strategic rules decide (Civil War: the "
        "assault succeeds).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [*battle_rulesets(), "rules"]


def battle_rulesets() -> list[str]:
    from rules.core.protocol import Tactical

    return [n for n in catalog.names() if isinstance(catalog.get(n), Tactical)]


@extend_schema_field(
    {
        "type": "object",
        "maxProperties": 4,
        "additionalProperties": {
            "type": "array",
            "maxItems": 50,
            "items": {"type": "string", "minLength": 1, "maxLength": 40},
        },
    }
)
class LostField(serializers.JSONField):
    """{side: [unit ids]}, checked as one field (its errors are one message, not one per element)."""

    def to_internal_value(self, data):
        ok = isinstance(data, dict) and all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(u, str) and 0 < len(u) <= 40 for u in v)
            for k, v in data.items()
        )
        if not ok or len(data) > 4 or any(len(v) > 50 for v in data.values()):
            raise serializers.ValidationError("must be {side: [unit ids]}, each id 1 to 40 characters")
        return data


class BattleReviewSerializer(StrictSerializer):
    winner = serializers.CharField(
        required=False, allow_null=True, help_text="Amend the winner (a side, or null for neither)."
    )
    lost = LostField(required=False, help_text="Amend the units lost: {side: [unit ids]}.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000, help_text="Why, shown to players.")
