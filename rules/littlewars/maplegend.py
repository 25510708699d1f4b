"""The deployment zones and the legend of the Little Wars (and Kriegspiel) map, from the view alone.

Zones follow the deployment rule (scenario.zone_error): within ``deploy_depth`` of one's own
edge (LW-7/8), or for a defender (LW-54) its half less an infantry move. They are public: the
edges and the settings are the game's terms, in every viewer's view.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from rules.core import tablesvg
from rules.core.mapwords import Words

from .units import pace

NEUTRAL = "#555"


def zone_regions(view: dict[str, Any], words: Words) -> list[tuple[str, tablesvg.Region, str]]:
    """(side, region, note) of each side's deployment zone, the note in ``words``' language."""
    table, sc = view["table"], view.get("scenario") or {}
    settings = sc.get("settings") or {}
    w, d = table["width"], table["depth"]
    out = []
    for side, edge in sorted((table.get("edges") or {}).items()):
        span = d if edge in ("south", "north") else w
        if sc.get("kind") == "defence" and settings.get("defender") == side:
            reach = span / 2.0 - pace(sc, "inf")
            template = "{side} (defender) deploys up to {reach} in from the {edge} edge"
        else:
            reach = float(settings.get("deploy_depth", 12.0))
            template = "{side} deploys within {reach} in of the {edge} edge"
        note = words(template, side=words.side(side), reach=f"{reach:g}", edge=words(f"edge|{edge}"))
        out.append((side, tablesvg.edge_zone(edge, reach, w, d), note))
    return out


def zones(view: dict[str, Any], words: Words) -> tuple[list[str], list[tuple[str, str]]]:
    """The zones' SVG and (side, note) for the legend."""
    d = view["table"]["depth"]
    regions = zone_regions(view, words)
    return (
        [tablesvg.zone(side, region, d, note) for side, region, note in regions],
        [(side, note) for side, _, note in regions],
    )


def legend_items(
    view: dict[str, Any],
    terrain_styles: Mapping[str, str],
    colours: Mapping[str, str],
    zone_notes: Iterable[tuple[str, str]],
    words: Words,
    limbered: Collection[str] = (),
) -> list[tuple[str, str]]:
    """(swatch, text) for what this map shows: ``terrain_styles`` of the terrain in the drawn region,
    the kinds of troops, zones, marks; the texts in ``words``' language."""
    items = [
        (f'<rect x="0" y="0.1" width="1.2" height="0.8" {style}/>', words(t)) for t, style in terrain_styles.items()
    ]
    figures = view.get("figures", [])
    items.append((f'<circle cx="0.5" cy="0.5" r="0.3" fill="{NEUTRAL}"/>', words("infantry figure")))
    items.append((f'<rect x="0.05" y="0.2" width="0.9" height="0.6" fill="{NEUTRAL}"/>', words("cavalry figure")))
    if any(f.get("captor") or f.get("disarmed") for f in figures):
        items.append(
            (
                f'<circle cx="0.5" cy="0.5" r="0.3" fill="none" stroke="{NEUTRAL}" stroke-width="0.1"/>',
                words("prisoner or disarmed"),
            )
        )
    if view.get("groups"):
        items.append(
            (
                f'<rect x="0" y="0.1" width="1.2" height="0.8" fill="none" stroke="{NEUTRAL}" stroke-width="0.08" '
                f'stroke-dasharray="0.3 0.2"/>',
                words("your group: name (figures)"),
            )
        )
    guns = view.get("guns", [])
    if any(g.get("crewed") for g in guns):
        items.append(('<circle cx="0.5" cy="0.5" r="0.4" fill="#222"/>', words("gun, crewed (4 within 6 in)")))
    if any(not g.get("crewed") for g in guns):
        items.append(
            (
                '<circle cx="0.5" cy="0.5" r="0.4" fill="#fff" stroke="#222" stroke-width="0.1" '
                'stroke-dasharray="0.15 0.1"/><path d="M0.2,0.8L0.8,0.2" stroke="#c00" stroke-width="0.1"/>',
                words("gun without crew"),
            )
        )
    if limbered:
        items.append(
            (
                '<rect x="0" y="0.3" width="0.5" height="0.4" fill="#8a6d3b"/><circle cx="0.75" cy="0.5" '
                'r="0.3" fill="#222"/>',
                words("gun limbered up"),
            )
        )
    if view.get("wagons"):
        items.append(
            (
                '<rect x="0" y="0.15" width="1" height="0.7" rx="0.15" fill="#f4ecd8" stroke="#555" '
                'stroke-width="0.1"/>',
                words("supply wagon (dark: ammunition cart)"),
            )
        )
    for side, note in zone_notes:
        colour = colours.get(side, NEUTRAL)
        items.append(
            (
                f'<rect x="0" y="0.1" width="1.2" height="0.8" fill="{colour}" fill-opacity="0.15" '
                f'stroke="{colour}" stroke-width="0.08" stroke-dasharray="0.3 0.2"/>',
                note,
            )
        )
    items += _kriegspiel_items(view.get("kriegspiel") or {}, words)
    last = view.get("last") or {}
    if last.get("impacts"):
        items.append(
            ('<path d="M0.2,0.2L0.8,0.8M0.2,0.8L0.8,0.2" stroke="#000" stroke-width="0.12"/>', words("shot fell"))
        )
    if last.get("melees"):
        items.append(
            (
                '<circle cx="0.5" cy="0.5" r="0.4" fill="#f39c12" fill-opacity="0.3" stroke="#e67e22" '
                'stroke-width="0.08"/>',
                words("melee"),
            )
        )
    return items


def _kriegspiel_items(ks: dict[str, Any], words: Words) -> list[tuple[str, str]]:
    """The Kriegspiel marks this view holds (kriegspiel/render.py draws them)."""
    seen = ks.get("seen") or {}
    shown = [
        ("railways", '<path d="M0,0.5H1.2" stroke="#333" stroke-width="0.15" stroke-dasharray="0.3 0.15"/>', "railway"),
        (
            "works",
            '<circle cx="0.5" cy="0.5" r="0.4" fill="none" stroke="#6b4f1d" stroke-width="0.12" '
            'stroke-dasharray="0.2 0.1"/>',
            "work (entrenchment, gun pit, mine, bridge)",
        ),
        ("wrecks", '<circle cx="0.5" cy="0.5" r="0.35" fill="#444"/>', "wreck of a gun"),
        ("vehicles", '<rect x="0" y="0.3" width="1.2" height="0.45" fill="#555"/>', "train or vehicle"),
    ]
    items = [(swatch, words(text)) for key, swatch, text in shown if ks.get(key)]
    if seen.get("boxes"):
        items.append(
            (
                '<rect x="0" y="0.15" width="1.1" height="0.7" fill="#caa472" stroke="#5a4632" stroke-width="0.08"/>',
                words("enemy box (its size known only within 10 ft)"),
            )
        )
    if seen.get("last_seen"):
        items.append(
            (
                '<circle cx="0.5" cy="0.5" r="0.3" fill="none" stroke="#777" stroke-width="0.08" '
                'stroke-dasharray="0.1 0.06"/>',
                words("enemy last seen"),
            )
        )
    return items
