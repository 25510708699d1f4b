"""Creating a game: its seats, its setup from the scenario, and its invitations."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.models import Campaign, Game, Seat
from rules import catalog
from rules.core import dice
from rules.core.protocol import UMPIRE, RuleEvent, SeveralCommands

from . import gamelog, invitations, lifecycle
from .errors import TurnError
from .gamelog import Draft
from .mailaddress import verified_address


def create_game(
    *,
    campaign: Campaign,
    name: str,
    ruleset: str,
    seats: list[dict],
    scenario=None,
    settings: dict | None = None,
    operator: bool = False,
    created_by=None,
    commands: dict | None = None,
    options: dict | None = None,
) -> Game:
    """Create a game with its seats and set it up from the scenario.

    ``seats``: dicts with role, side (players), user, (several players a side) command, and
    (operator only) email. ``commands``: ``{side: {command: [group and gun names]}}`` laid over
    the scenario's own (LW-61, KS-9; rule sets with ``merge_orders`` only). ``options``: the rule
    set's ``game_options`` chosen (``{name: value}``), put into the scenario by the rule set; the
    scenario's name and the options chosen are public in ``game.created``.

    ``operator=True`` (load_demo, tests, scripts): every seat is taken at once with the address
    given, and turn 1 opens now. Otherwise (the web) naming a user only invites them
    (invitations.py): no address may be given, the creator's own seats are taken at once with
    their verified address (if they have one), and turn 1 opens when every player and the umpire
    have accepted. Either way a user holds one seat, unless the game's ``umpire_plays`` setting
    lets the umpire also hold one player seat.
    """
    rs = catalog.get(ruleset)
    chosen = {k: v for k, v in (options or {}).items() if v}
    scenario = rs.load_scenario(_with_commands(rs, rs.with_options(scenario, chosen), commands))
    settings = {**lifecycle.DEFAULT_SETTINGS, **(settings or {})}
    teams = _teams(rs, seats)
    if teams:
        settings["teams"] = teams
    if not operator and any(s.get("email") for s in seats):
        raise TurnError(_("a seat's mail address is its player's own verified address: it cannot be given here"))
    try:
        invitations.check_seating([(s["role"], s.get("user")) for s in seats], bool(settings["umpire_plays"]))
    except invitations.InvitationError as exc:
        raise TurnError(str(exc)) from exc
    with transaction.atomic():
        game = Game.objects.create(campaign=campaign, name=name, ruleset=ruleset, created_by=created_by)
        stream = gamelog.load(game, lock=True)
        seed = dice.new_seed()
        drafts = [
            Draft(
                0,
                RuleEvent(
                    "game.created",
                    {
                        "ruleset": ruleset,
                        "rules_version": rs.version,  # the game keeps these rules (rules/README.md)
                        "name": name,
                        "settings": settings,
                        "scenario": {"name": scenario.get("name"), "title": scenario.get("title"), "options": chosen},
                        "setup_commitment": dice.commitment(seed),
                    },
                ),
            ),
            Draft(0, RuleEvent("seed.sealed", {"turn": 0, "seed": seed}, audience=UMPIRE)),
        ]
        drafts += [Draft(0, ev) for ev in rs.setup(scenario, dice.rng_for(seed, "setup"))]
        drafts.append(Draft(0, RuleEvent("seed.revealed", {"turn": 0, "seed": seed})))
        stream = gamelog.append(stream, drafts)
        _check_commands(rs, stream.state.rules, teams)
        invited = []
        for s in seats:
            seat = Seat(
                game=game, role=s["role"], side=s.get("side", ""), user=s.get("user"), command=s.get("command") or ""
            )
            address = s["email"] if operator else _creators_own(s, created_by)
            if address:
                seat.email, seat.accepted_at = address, timezone.now()
                seat.save()
            else:
                invited.append(invitations.offer(seat, s.get("user")))
        for seat in invited:  # once every seat exists, so each invitation names them all
            invitations.mail_invitation(seat, by=created_by)
        invitations.start_if_ready(stream)
    game.refresh_from_db()
    return game


def _with_commands(rs, scenario, commands: dict | None):
    """The scenario with the game's commands over it (a built-in scenario by name becomes its base)."""
    if not commands:
        return scenario
    if not isinstance(rs, SeveralCommands):
        raise TurnError(_("%(ruleset)s is played by one player a side: it has no commands") % {"ruleset": rs.title})
    if scenario is None:
        scenario = rs.load_scenario(None)["name"]
    return {**({"base": scenario} if isinstance(scenario, str) else scenario), "commands": commands}


def _teams(rs, seats: list[dict]) -> dict[str, list[str]]:
    """{side: [commands]} for the sides held by several seats (LW-61, KS-9); a side's only seat
    holds the whole side. Raises TurnError naming what is wrong."""
    by_side: dict[str, list[str]] = {side: [] for side in rs.sides}
    for s in seats:
        if s["role"] != Seat.Role.PLAYER:
            continue
        if s.get("side") not in by_side:
            raise TurnError(
                _("%(side)s is not a side of %(ruleset)s: the sides are %(sides)s")
                % {"side": repr(s.get("side")), "ruleset": rs.title, "sides": _sides(rs.sides)}
            )
        by_side[s["side"]].append(s.get("command") or "")
    missing = [side for side, cmds in by_side.items() if not cmds]
    if missing:
        raise TurnError(
            _("%(ruleset)s needs a player for each of: %(sides)s (none for %(missing)s)")
            % {"ruleset": rs.title, "sides": _sides(rs.sides), "missing": _sides(missing)}
        )
    teams = {}
    for side, cmds in by_side.items():
        if len(cmds) == 1 and not cmds[0]:
            continue
        if not isinstance(rs, SeveralCommands):
            raise TurnError(
                _("%(ruleset)s is played by one player a side: %(side)s has %(count)s")
                % {"ruleset": rs.title, "side": pgettext("side", side), "count": len(cmds)}
            )
        if "" in cmds or len(set(cmds)) != len(cmds):
            raise TurnError(
                _(
                    "%(side)s has several players: each names its own command (or 'commander' for the "
                    "whole side), and no two the same"
                )
                % {"side": pgettext("side", side)}
            )
        teams[side] = sorted(cmds)
    return teams


def _check_commands(rs, rules_state, teams: dict[str, list[str]]) -> None:
    """Every seat's command is one of the scenario's for its side, and every command is held (or a
    commander holds the whole side)."""
    for side, cmds in teams.items():
        known = rs.commands(rules_state, side)
        unknown = [c for c in cmds if c != "commander" and c not in known]
        if unknown:
            raise TurnError(
                _(
                    "%(side)s has no command %(unknown)s: the scenario's commands for %(side)s are %(known)s, and 'commander'"
                )
                % {
                    "side": pgettext("side", side),
                    "unknown": ", ".join(unknown),
                    "known": ", ".join(known) or _("none (give the scenario commands)"),
                }
            )
        unheld = [c for c in known if c not in cmds]
        if unheld and "commander" not in cmds:
            raise TurnError(
                _("nobody orders %(side)s's %(commands)s: give each command a player, or seat a commander")
                % {"side": pgettext("side", side), "commands": ", ".join(unheld)}
            )


def _sides(sides) -> str:
    return ", ".join(pgettext("side", side) for side in sides)


def _creators_own(seat: dict, created_by) -> str:
    """The creator takes their own seats at once, at their verified address ("": only an invitation)."""
    return verified_address(created_by) if created_by is not None and seat.get("user") == created_by else ""
