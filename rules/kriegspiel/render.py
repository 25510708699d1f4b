"""SVG marks the Kriegspiel view adds to the Little Wars map: works, wrecks, boxes and last-seen figures."""

from __future__ import annotations

from html import escape
from typing import Any

from rules.core.mapwords import Words

WORK_STYLE = 'stroke="#6b4f1d" stroke-width="0.5" stroke-dasharray="0.6 0.3"'
WRECK = 'fill="#444" stroke="#000" stroke-width="0.1"'
BOX = 'fill="#caa472" stroke="#5a4632" stroke-width="0.2"'
RAIL = 'fill="none" stroke="#333" stroke-width="0.4" stroke-dasharray="1 0.5"'
VEHICLE = 'fill="#555" stroke="#000" stroke-width="0.1"'
LAST_SEEN = 'fill="none" stroke="#777" stroke-width="0.08" stroke-dasharray="0.15 0.1"'


def extra_svg(view: dict[str, Any], words: Words) -> str:
    """The marks in table inches, their hover titles in ``words``' language (names as the game gives them)."""
    table = view.get("table")
    ks = view.get("kriegspiel")
    if not table or not ks:
        return ""
    d = table["depth"]
    parts = []
    for r in ks.get("railways", []):
        pts = " ".join(f"{x:.2f},{d - y:.2f}" for x, y in r["line"])
        parts.append(
            f'<polyline points="{pts}" {RAIL}><title>{escape(words("railway {id}", id=r["id"]))}</title></polyline>'
        )
    for rail, spots in ks.get("rail_breaks", {}).items():  # a broken stretch: a red cross on the line
        for x, y in spots:
            parts.append(
                f'<path d="M{x - 1:.2f},{d - y - 1:.2f}L{x + 1:.2f},{d - y + 1:.2f}M{x - 1:.2f},{d - y + 1:.2f}'
                f'L{x + 1:.2f},{d - y - 1:.2f}" stroke="#c00" stroke-width="0.4">'
                f"<title>{escape(words('rails of {rail} broken', rail=rail))}</title></path>"
            )
    for v in ks.get("vehicles", {}).values():
        parts.append(
            f'<rect x="{v["x"] - 2:.2f}" y="{d - v["y"] - 0.8:.2f}" width="4" height="1.6" {VEHICLE}>'
            f"<title>{escape(words('{kind} {name}: {n} aboard', kind=words(v['kind']), name=v['name'], n=len(v['aboard'])))}"
            "</title></rect>"
        )
    for w in ks.get("works", []):
        x, y = w["at"][0], d - w["at"][1]
        label = escape(
            words(
                "{kind} {id} ({side}, {status})",
                kind=words(w["kind"]),
                id=w["id"],
                side=words.side(w["side"]),
                status=words(f"work|{w['status']}"),
            )
        )
        if w.get("to"):
            x2, y2 = w["to"][0], d - w["to"][1]
            parts.append(
                f'<line x1="{x:.2f}" y1="{y:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" {WORK_STYLE}>'
                f"<title>{label}</title></line>"
            )
        else:
            parts.append(
                f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{6 if w["kind"] == "mine" else 2}" fill="none" '
                f"{WORK_STYLE}><title>{label}</title></circle>"
            )
    for gid, (x, y) in ks.get("wrecks", {}).items():
        parts.append(
            f'<circle cx="{x:.2f}" cy="{d - y:.2f}" r="0.8" {WRECK}>'
            f"<title>{escape(words('wreck of {gun}', gun=gid.split(':')[-1]))}</title></circle>"
        )
    seen = ks.get("seen") or {}
    for b in seen.get("boxes", []) if "boxes" in seen else []:
        count = "?" if b["count"] is None else b["count"]
        parts.append(
            f'<rect x="{b["x"] - 1.5:.2f}" y="{d - b["y"] - 1:.2f}" width="3" height="2" {BOX}>'
            f"<title>{escape(words('{id}: {count} figures', id=b['id'], count=count))}</title></rect>"
        )
    for o in seen.get("objects", []):
        parts.append(
            f'<rect x="{o["x"] - 1.5:.2f}" y="{d - o["y"] - 1:.2f}" width="3" height="2" {WRECK}>'
            f"<title>{escape(words('enemy {kind}', kind=words(o['kind'])))}</title></rect>"
        )
    for f in seen.get("last_seen", []) if "last_seen" in seen else []:
        parts.append(
            f'<circle cx="{f["x"]:.2f}" cy="{d - f["y"]:.2f}" r="0.25" {LAST_SEEN}>'
            f"<title>{escape(words('last seen in turn {turn}', turn=f['turn']))}</title></circle>"
        )
    return "".join(parts)
