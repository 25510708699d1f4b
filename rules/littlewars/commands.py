"""Several players a side (LW-61, KS-9): each side's groups and guns split into named commands.

A scenario may give ``"commands": {side: {command: [group and gun names]}}``. When the table is
laid the fold turns each command into the *figures* of its groups and the ids of its guns
(``state["commands"]``), so a command follows its men, not group names: a group split from a
group is in the same command (its figures are), a group formed or merged from figures of two
commands is *mixed* and only the commander may order it. Figures and guns in no command
(groups not listed, captured guns, prisoner groups) are *common*: any seat of the side may order
them. The command ``commander`` (and a seat without a command) may order everything of its side.

Orders are checked per command (``command_errors``) and merged per side (``merge``): the
commander's lines come first, then each command's in name order; a later line naming a unit
(or a new group name, or a side-wide order like ``melee``) that another command's earlier line
already claimed is dropped and reported as a conflict, which the side (every seat of it) is told.
(Before Little Wars version 3 a command's own earlier line counted too: ``merge``.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, Protocol

from rules.core.protocol import LineError, ParsedOrders

from .orders import Order
from .version import lw_version

COMMANDER = "commander"
# Order fields that name a unit the order acts on; "new" names the group it makes.
_UNIT_FIELDS = ("who", "gun", "into", "members", "new", "vehicle", "depot")
_SIDE_WIDE = {"Melee": "melee", "Edge": "edge"}


def resolve(
    scenario_commands: dict[str, Any], groups: dict[str, Any], guns: dict[str, Any], side: str
) -> dict[str, Any]:
    """{command: {"figures": [...], "guns": [...]}} for ``side`` from the scenario's names."""
    out: dict[str, Any] = {}
    for cmd, names in scenario_commands.get(side, {}).items():
        figs = [fid for n in names for fid in groups.get(n, [])]
        gids = [gid for gid, g in guns.items() if g["side"] == side and g["name"] in names]
        out[cmd] = {"figures": figs, "guns": gids}
    return out


def names(state: dict[str, Any], side: str) -> list[str]:
    """The side's commands (the scenario's), without the commander."""
    return sorted((state.get("commands") or {}).get(side, {}))


def _owner_of_ids(state: dict[str, Any], side: str, ids: list[str], key: str) -> str | None:
    """The one command holding all ``ids``; "" if none of them is in a command; None if mixed."""
    owners = set()
    for i in ids:
        owners.add(next((c for c, u in state["commands"][side].items() if i in u[key]), ""))
    return owners.pop() if len(owners) == 1 else ("" if not owners else None)


def unit_command(state: dict[str, Any], side: str, name: str) -> str | None:
    """The command that orders ``name`` ("" = common to all, None = mixed: the commander's)."""
    low = name.lower()
    for gname, ids in state["groups"].get(side, {}).items():
        if gname.lower() == low:
            return _owner_of_ids(state, side, ids, "figures")
    if f"{side}:{low}" in state["figures"]:
        return _owner_of_ids(state, side, [f"{side}:{low}"], "figures")
    gids = [gid for gid, g in state["guns"].items() if g["owner"] == side and g["name"].lower() == low]
    if gids:
        return _owner_of_ids(state, side, gids, "guns")
    return ""  # prisoner groups, new names, wagons, unknown names (the rules' own check names those)


def units_of(state: dict[str, Any], side: str, command: str | None) -> list[str]:
    """The names a command may order now: its groups and guns, and the common ones (all for the commander)."""
    whole = not command or command == COMMANDER
    groups = [n for n in state["groups"].get(side, {}) if whole or unit_command(state, side, n) in ("", command)]
    guns = [
        g["name"]
        for g in state["guns"].values()
        if g["owner"] == side and (whole or unit_command(state, side, g["name"]) in ("", command))
    ]
    return sorted(groups) + sorted(guns) + sorted(state["pows"].get(side, {}))


def _units(order: Order) -> list[str]:
    out = []
    for f in fields(order):
        if f.name in _UNIT_FIELDS:
            value = getattr(order, f.name)
            out += list(value) if isinstance(value, tuple) else [value] if value else []
    return out


def command_errors(
    state: dict[str, Any], side: str, command: str | None, orders: Sequence[Order]
) -> tuple[LineError, ...]:
    """Lines of ``command``'s orders that name a unit of another command (or a mixed group)."""
    if not command or command == COMMANDER or not state.get("commands", {}).get(side):
        return ()
    errors = []
    for o in orders:
        for unit in _units(o):
            if getattr(o, "new", "") == unit:
                continue  # the name of the group the order makes: it inherits its figures' command
            owner = unit_command(state, side, unit)
            if owner not in ("", command):
                whose = f"the {owner} command's" if owner else "mixed from several commands: the commander's"
                errors.append(
                    LineError(
                        o.line,
                        o.text,
                        f"{unit} is {whose}; the {command} command orders only its own groups and guns and common ones",
                    )
                )
                break
    return tuple(errors)


def _claims(order: Order) -> list[str]:
    kind = _SIDE_WIDE.get(type(order).__name__)
    return [kind] if kind else [u.lower() for u in _units(order)]


def merge(
    texts: dict[str, str], parse: Callable[[str], ParsedOrders], own_lines: bool = True
) -> tuple[str, list[dict[str, Any]]]:
    """One side's orders from its commands' texts: (text, conflicts). Commander first, then by name;
    a line claiming a unit another command's earlier kept line claimed is dropped (a conflict).

    A command's own lines never clash with each other (``own_lines``, Little Wars version 3): its
    ``split foot1 2 as sappers`` then ``mine sappers at …`` both reach the rules, which judge them
    as they judge one player's orders. Before version 3 (``own_lines=False``) a command's later line
    naming a unit its earlier line had named was dropped too, which lost such follow-up lines."""
    order = sorted(texts, key=lambda c: (c != COMMANDER, c))
    claimed: dict[str, str] = {}
    lines, conflicts = [], []
    for cmd in order:
        kept = []
        for o in parse(texts[cmd]).orders:
            claims = list(_claims(o))
            clash = next((c for c in claims if c in claimed and not (own_lines and claimed[c] == cmd)), None)
            if clash is not None:
                conflicts.append({"unit": clash, "kept": claimed[clash], "dropped": cmd, "line": o.text})
                continue
            if type(o).__name__ == "Hold" and not claims:
                continue
            claimed.update({c: claimed.get(c, cmd) for c in claims})
            kept.append(o.text)
        if kept:
            lines += [f"# {cmd}"] + kept
    return ("\n".join(lines) or "hold"), conflicts


class _ParsesOrders(Protocol):
    """The rule set that ``Teams`` is mixed into reads its own orders."""

    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders: ...


class Teams:
    """The rule set methods the platform calls for sides with several seats (mixed into both rule sets)."""

    def commands(self, state: dict[str, Any], side: str) -> list[str]:
        return names(state, side)

    def command_units(self, state: dict[str, Any], side: str, command: str | None) -> list[str]:
        return units_of(state, side, command)

    def command_errors(
        self, state: dict[str, Any], side: str, command: str | None, orders: Sequence[Any]
    ) -> tuple[LineError, ...]:
        return command_errors(state, side, command, orders)

    def merge_orders(
        self: _ParsesOrders, state: dict[str, Any], side: str, texts: dict[str, str], kind: str = "orders"
    ) -> tuple[str, list[dict[str, Any]]]:
        return merge(texts, lambda text: self.parse_orders(state, side, text, kind), lw_version(state) >= 3)
