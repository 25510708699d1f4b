"""One readable English line per Kriegspiel event (Little Wars events as the main part words them)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.words import count
from rules.littlewars.describe import describe_event as lw_describe
from rules.littlewars.describe import describe_with

from .state import PREFIX

_WORK = {"mine": "a mine", "entrenchment": "an entrenchment", "gunpit": "a gun pit",
         "bridge_destroy": "blowing a bridge", "bridge_restore": "rebuilding a bridge", "depot_burn": "burning a depot",
         "wagons_destroy": "emptying wagons", "rail_destroy": "breaking the rails", "rail_restore": "repairing the rails"}
_WORK.update(board="boarding", land="landing")
_DONE = {"bridge_destroy": "blew up bridge {t}", "bridge_restore": "rebuilt bridge {t}",
         "depot_burn": "burnt an enemy depot", "wagons_destroy": "emptied enemy wagons",
         "rail_destroy": "broke the rails of {t}", "rail_restore": "repaired the rails of {t}"}


def _cap(s: Any) -> str:
    return str(s).capitalize()


def _name(p: Mapping[str, Any]) -> str:
    """A work as an event names it: by its side's own number (``w2``) in that side's reports,
    by its public number (``blue:p1``) in public events."""
    return str(p["id"]).split(":")[-1] if "id" in p else f"{p['side']}:p{p['public']}"


def _works(p: Mapping[str, Any]) -> str:
    parts = [f"started {_WORK[w['kind']]} ({_name(w)}) at {w['at'][0]:g},{w['at'][1]:g} with {count(len(w['workers']), 'man', 'men')}"
             for w in p["started"]]
    for c in p["progress"]:
        if c["status"] == "abandoned":
            parts.append(f"{_name(c)} abandoned: {c['reason']}")
        elif c["status"] == "armed":
            parts.append(f"{_name(c)} is laid and armed")
        else:
            parts.append(f"{_name(c)} {count(c['done'], 'turn')} done")
    for name, (x, y) in (p.get("depots") or {}).items():
        parts.append(f"depot {name} driven to {x:g},{y:g} (it supplies nothing this turn, KS-38)")
    for vid, (x, y) in (p.get("vehicles") or {}).items():
        parts.append(f"{vid.split(':')[-1]} moved to {x:g},{y:g}")
    for c in p.get("charges_failed") or []:
        parts.append(f"the charge of line {c['line']} did not happen: {c['why']}")
    if p.get("columns"):
        parts.append(f"{count(len(p['columns']), 'man', 'men')} in column")
    if p.get("dismounted"):
        parts.append(f"{count(len(p['dismounted']), 'cavalryman', 'cavalrymen')} on foot")
    if p.get("limbered"):
        parts.append("limbered up: " + ", ".join(g.split(":")[-1] for g in p["limbered"]))
    if p.get("boxed"):
        parts.append("in boxes: " + ", ".join(p["boxed"]))
    for load in p.get("loaded") or []:
        what = f"{len(load['boarded'])} boarded" if load["boarded"] else f"{len(load['landed'])} landed from"
        parts.append(f"{what} {load['vehicle'].split(':')[-1]}")
    return f"{_cap(p['side'])} works, turn {p['turn']}: " + ("; ".join(parts) if parts else "nothing in hand") + "."


def _sighted(p: Mapping[str, Any]) -> str:
    boxes, objects = len(p["boxes"]), len(p.get("objects", []))
    return (f"{_cap(p['side'])} scouts report after turn {p['turn']}: {count(len(p['figures']), 'enemy figure')}, "
            f"{count(len(p['guns']), 'gun')}" + (f", {count(boxes, 'box', 'boxes')}" if boxes else "")
            + (f", {count(objects, 'depot, train or boat', 'depots, trains or boats')}" if objects else "") + " in sight.")


def _supplied(p: Mapping[str, Any]) -> str:
    short = {g: s for g, s in p["groups"].items() if s["missing"]}
    txt = f"{_cap(p['side'])} supply, turn {p['turn']}: {count(len(p['draws']), 'draw')}"
    if short:
        txt += "; short: " + ", ".join(f"{g} ({', '.join(s['missing'])})" for g, s in sorted(short.items()))
    return txt + "."


def _mine(p: Mapping[str, Any]) -> str:
    return (f"A mine of {p['side']} exploded at {p['at'][0]:g},{p['at'][1]:g} as {str(p['by']).split(':')[-1]} "
            f"passed: {count(len(p['killed']), 'figure')} and {count(len(p['guns']), 'gun')} destroyed (KS-59/60).")


def _charge(p: Mapping[str, Any]) -> str:
    what = {"guns": "an unsupported gun", "cavalry": "cavalry", "cavalry_standing": "cavalry standing still (KS-75)",
            "infantry_open": "infantry in open order", "infantry_close": "infantry in close order",
            "infantry_open_withdrawing": "withdrawing infantry in open order (KS-82)",
            "infantry_close_withdrawing": "withdrawing infantry in column (KS-83)"}[p["kind"]]
    txt = (f"{_cap(p['side'])} cavalry ({len(p['by'])}) charged {what} from {p['distance'] / 12:.1f} ft: "
           f"{len(p['killed'])} fell")
    if p.get("captured"):
        txt += f"; {len(p['captured'])} taken prisoner by {p['captor']} as {p['pow']} (KS-78)"
    if p.get("coin"):
        txt += f"; the coin favoured the {p['coin']}"
    if p.get("gun"):
        txt += f"; gun {str(p['gun']).split(':')[-1]} taken"
    if p.get("pursued_guns"):
        txt += f"; {count(len(p['pursued_guns']), 'withdrawing gun')} of its battery pursued (KS-86)"
    if p.get("destroyed"):
        txt += f"; {len(p['destroyed'])} destroyed in the retreat (KS-81)"
    return txt + "."


_SIMPLE = {
    "charge": _charge,

    "works": _works,
    "work_completed": lambda p: (f"{_cap(p['side'])} " + _DONE[p["kind"]].format(t=p.get("target")) + "."
                                 if p["kind"] in _DONE else
                                 f"{_cap(p['side'])} finished {_WORK[p['kind']]} at {p['at'][0]:g},{p['at'][1]:g}"
                                 + (f" to {p['to'][0]:g},{p['to'][1]:g}" if p.get("to") else "") + " (KS-67)."),
    "mine_exploded": _mine,
    "blast": lambda p: (f"Blast effects: {count(len(p['guns_destroyed']), 'gun')} destroyed, {count(len(p['guns_out']), 'gun')} out "
                        f"of action, {count(sum(len(v) for v in p['wagons'].values()), 'depot')} burnt, generals near a shell: "
                        f"{', '.join(p['generals_out']) or 'none'}."),
    "sighted": _sighted,
    "supplied": _supplied,
    "ledger_adjusted": lambda p: (f"The umpire adjusted {p['side']}'s depot {p['depot']}: {p['portions']:+d} portions "
                                  f"of {p['kind']} ({p['reason']})."),
    "note": lambda p: f"Umpire: {p['text']}",
    "ruling": lambda p: f"Umpire's ruling: {p['reason']}",
    "work_revealed": lambda p: f"The umpire reveals {_WORK[p['kind']]} of {p['side']} at {p['at'][0]:g},{p['at'][1]:g}.",
    "sighting_ruled": lambda p: f"The umpire rules that {p['side']} sees {str(p['figure']).split(':')[-1]}: {p['reason']}.",
    "general_lost": lambda p: (f"The {p['side']} general has fallen (KS-14); "
                               + (f"{str(p['deputy']).split(':')[-1]} takes command" if p.get("deputy")
                                  else "no one is left to command") + "; his side holds while command passes."),
    "work_abandoned": lambda p: f"The umpire rules {_name(p)} abandoned: {p['reason']}.",
}


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    if event_type == "littlewars.deployment_done":
        return "The curtain is lifted: each side now sees what its own men can see. Turn 1 begins."
    if event_type == "littlewars.orders_rejected" and not payload.get("errors"):
        return f"{_cap(payload.get('side'))}: no line of the orders was refused."
    if event_type == "littlewars.groups_changed":
        return f"{_cap(payload.get('side'))}'s groups: " + ", ".join(
            f"{k} ({len(v)})" for k, v in sorted(payload.get("groups", {}).items())) + "."
    if not event_type.startswith(PREFIX):
        return lw_describe(event_type, payload)
    return describe_with(_SIMPLE, PREFIX, event_type, payload)
