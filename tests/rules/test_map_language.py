"""Maps in the reader's language (issue 17, "Russian and English throughout"; rules/core/MAPS.md,
"Language"): every rule set's map drawn in Russian says nothing in English but the names the
scenario gives and the words of orders, and the English one nothing in Cyrillic.

Built from the term tables themselves (rules/core/mapwords.py and each rule set's mapwords.py):
the vocabulary checked is every English word of the tables, and what is left of the Russian map
once the scenario's names are taken out may hold no Latin word at all, so a term drawn in English
(left out of a table, or written past it) fails here.
"""

from __future__ import annotations

import importlib
import random
import re
import string
import sys
import xml.etree.ElementTree as ET

import pytest
from PIL import ImageFont

from rules import catalog
from rules.core import mapwords as core_words
from rules.core.fontwidth import text_width
from rules.core.i18n import Msg
from rules.core.mapsvg import overlap, text_box
from rules.core.protocol import Viewer
from rules.littlewars import mapwords as lw_words
from rules.littlewars.testing import fuzz_game
from tests.services import DEJAVU_SANS, needs_dejavu
from tests.support.conformance import bot_game

NS = "{http://www.w3.org/2000/svg}"
RED, UMPIRE = Viewer("player", "red"), Viewer("umpire")
NAMES = catalog.names()  # every rule set in the catalogue (issue 33): a new one is checked by being registered
# What the scenario or orders name: the values under these keys (and the keys of dicts under them).
NAME_KEYS = {"id", "name", "title", "nation", "options", "armies", "standing_instructions"}
NAME_KEYS |= {"groups", "prisoner_groups", "vehicles", "wrecks", "rail_breaks"}
LATIN_WORD = re.compile(r"(?<![\w.])[A-Za-z][A-Za-z']+(?![\w])")
CYRILLIC = re.compile("[\u0400-\u04ff]")


def english(key: str) -> str:
    return key.split("|", 1)[-1]


def tables(name: str) -> list[dict]:
    """A rule set's term tables: rules/core/mapwords.py's, its own ``rules.<name>.mapwords`` and every
    other ``mapwords`` table its modules take in (the hex engine's, Little Wars' for the Kriegspiel)."""
    own = importlib.import_module(f"rules.{name}.mapwords").WORDS
    known = {
        id(m.WORDS): m.WORDS for n, m in list(sys.modules.items()) if n.endswith(".mapwords") and hasattr(m, "WORDS")
    }
    found = [core_words.WORDS, own]
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith(f"rules.{name}."):
            for value in vars(module).values():
                if id(value) in known and not any(value is t for t in found):
                    found.append(value)
    return found


def vocabulary(name: str) -> set[str]:
    """Every English word of a map's term tables (not the {params})."""
    words: set[str] = set()
    for table in tables(name):
        for key in table:
            words |= {w.lower() for w in LATIN_WORD.findall(re.sub(r"\{[^}]*\}", " ", english(key)))}
    return words


def names_in(view) -> set[str]:
    """The strings of a view that name things (the scenario's and the orders' own words): what is
    under a naming key, values and keys (a side's group names, a vehicle's id); and the rule texts
    it carries marked, which the platform renders in the reader's language before drawing."""
    found: set[str] = set()

    def walk(value, naming=False):
        if isinstance(value, dict):
            for k, v in value.items():
                if naming:
                    found.add(str(k))
                walk(v, naming or k in NAME_KEYS)
        elif isinstance(value, list):
            for v in value:
                walk(v, naming)
        elif isinstance(value, Msg) or (isinstance(value, str) and naming):
            found.add(value)  # a marked rule text is the platform's to render (campaigns.i18n.draw_map)

    walk(view)
    return {s for s in found if len(s) > 1}


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [e.text for e in root.iter() if e.tag in (f"{NS}text", f"{NS}title") and e.text]


def latin_left(text: str, names: set[str]) -> list[str]:
    """The Latin words of ``text`` once the given names are cut out of it (longest first)."""
    for n in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(n)}(?!\w)", " ", text)
    return LATIN_WORD.findall(text)


def scenarios(rs):
    return [n for n, _ in rs.scenarios()] or [None]


def positions():
    """Every rule set in the catalogue on each shipped scenario: fresh, after its bots played three turns
    (two seeds), and on the first one played by them to the end: the words of most of its map's vocabulary. A rule set
    whose testing module plays a whole game its own way (``play_game``: the hex games) is also taken to
    that end; one that reads Little Wars' orders (the Kriegspiel) also after random orders."""
    lw_words_read = set(catalog.get("littlewars").order_words)
    for name in NAMES:
        rs, testing = catalog.get(name), importlib.import_module(f"rules.{name}.testing")
        for sc in scenarios(rs):
            yield f"{name}-{sc}-fresh", rs, rs.set_up(rs.load_scenario(sc), random.Random(1))
            for seed in (1, 2):
                yield f"{name}-{sc}-played-{seed}", rs, bot_game(rs, sc, seed, 3)
            if sc == scenarios(rs)[0]:  # to the end on the first only: the big tables take seconds a game
                over = bot_game(rs, sc, 1, 150)
                assert not rs.next_turn(over).sides, f"{name} {sc}: the bots' game did not end in 150 turns"
                yield f"{name}-{sc}-over", rs, over
            if hasattr(testing, "play_game"):
                yield f"{name}-{sc}-own-game", rs, testing.play_game(sc, 1)[0]
        if lw_words_read <= set(rs.order_words):
            yield f"{name}-fuzz", rs, fuzz_game(rs, None, 2, 5)


POSITIONS = list(positions())


@pytest.mark.parametrize("key,rs,state", POSITIONS, ids=[p[0] for p in POSITIONS])
@pytest.mark.parametrize("viewer", [RED, UMPIRE], ids=["red", "umpire"])
def test_a_russian_map_says_nothing_in_english_and_an_english_one_nothing_in_russian(key, rs, state, viewer):
    assert_each_in_its_language(rs, rs.view(state, viewer))


def assert_each_in_its_language(rs, view) -> None:
    english_svg, russian_svg = rs.render_svg(view), rs.render_svg(view, lang="ru")
    assert rs.render_svg(view, lang="en") == english_svg  # the default is English, as before languages came
    assert not CYRILLIC.search(english_svg)
    said = texts(russian_svg)
    assert any(CYRILLIC.search(t) for t in said)
    names, vocab = names_in(view), vocabulary(rs.name)
    left = [(t, w) for t in said for w in latin_left(t, names)]
    assert not [(t, w) for t, w in left if w.lower() in vocab], "terms drawn in English on the Russian map"
    assert not left, "English words on the Russian map that are neither a name nor a term"


def test_every_mark_and_state_a_map_can_show_is_russian_too():
    """What the positions above may not reach: every Kriegspiel work, vehicle and sighting mark,
    every War of the Worlds counter state, a Napoleon square. Views are the renderers' only input,
    so each is the view of a real game with those entries set as the view would hold them."""
    ks = catalog.get("kriegspiel")
    view = ks.view(fuzz_game(ks, None, 2, 3), UMPIRE)
    marks = view["kriegspiel"]
    marks["works"] = [
        {"id": f"w{i}", "kind": kind, "side": "red", "at": [10.0, 20.0 + i], "to": None, "status": status}
        for i, (kind, status) in enumerate(
            zip(
                ("mine", "entrenchment", "gunpit", "bridge_destroy", "rail_destroy", "depot_burn", "wagons_destroy"),
                ("building", "armed", "complete", "exploded", "abandoned", "building", "complete"),
                strict=True,
            )
        )
    ]
    marks["vehicles"] = {"v1": {"kind": "train", "name": "t1", "x": 5.0, "y": 5.0, "aboard": ["a"]}}
    marks["wrecks"] = {"red:gun9": [3.0, 3.0]}
    marks["railways"] = [{"id": "line1", "line": [[0.0, 1.0], [90.0, 1.0]]}]
    marks["rail_breaks"] = {"line1": [[20.0, 1.0]]}
    marks["seen"] = {
        "boxes": [{"id": "b1", "x": 30.0, "y": 30.0, "count": None}],
        "objects": [{"kind": k, "x": 40.0, "y": 40.0} for k in ("depot", "train", "boat")],
        "last_seen": [{"x": 50.0, "y": 50.0, "turn": 2}],
    }
    assert_each_in_its_language(ks, view)
    ww = catalog.get("warworlds")
    view = ww.view(ww.set_up(ww.load_scenario(None), random.Random(1)), UMPIRE)
    states = ("panic", "despondency", "inspired", "heroism")
    for u, morale in zip(view["units"], states * 3, strict=False):
        u.update(morale=morale, bonus=True, penalty=True, immobile=True, burning=True)
    view["units"][-1]["status"] = "abandoned"
    assert_each_in_its_language(ww, view)
    nap = catalog.get("napoleon")
    view = nap.view(nap.set_up(nap.load_scenario(None), random.Random(1)), UMPIRE)
    view["units"][0]["square"] = True
    assert_each_in_its_language(nap, view)


@pytest.mark.parametrize("name", NAMES)
def test_every_term_has_its_russian_with_the_same_params(name):
    for table in tables(name):
        for key, russian in table.items():
            fields = {f for _, f, _, _ in string.Formatter().parse(english(key)) if f}
            assert {f for _, f, _, _ in string.Formatter().parse(russian) if f} == fields, (key, russian)
            if LATIN_WORD.search(re.sub(r"\{[^}]*\}", " ", english(key))):
                assert CYRILLIC.search(russian), (key, russian)


@pytest.mark.parametrize("key,rs,state", POSITIONS, ids=[p[0] for p in POSITIONS])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_legend_entries_never_run_into_each_other(key, rs, state, lang):
    """The legends lay their entries out by the texts' measured widths: a longer language wraps
    to a new row instead of writing over the next entry. (The labels on the map: test_map_reading.)"""
    root = ET.fromstring(rs.render_svg(rs.view(state, RED), lang=lang))
    legend = next(e for e in root.iter(f"{NS}g") if "legend" in e.get("class", "").split())
    boxes = [
        text_box(
            float(e.get("x")),
            float(e.get("y")),
            float(e.get("font-size") or legend.get("font-size")),
            e.text,
            e.get("text-anchor", "start"),
        )
        for e in legend.iter(f"{NS}text")
    ]
    assert len(boxes) >= 3
    for i, a in enumerate(boxes):
        assert not any(overlap(a, b) for b in boxes[i + 1 :]), a


def test_cyrillic_is_measured_wider_than_latin_and_bold_wider_still():
    """What keeps Russian labels apart: the estimate follows the font, not a mean Latin width."""
    latin, cyrillic = text_box(0, 0, 1, "infantry"), text_box(0, 0, 1, "пехотинец")
    assert cyrillic[2] / 9 > latin[2] / 8
    assert text_box(0, 0, 1, "пехотинец", weight="bold")[2] > cyrillic[2]
    assert text_box(0, 0, 1, "ЖЖЖ")[2] > 3 * 0.6  # wider than the old 0.6 em a letter


@needs_dejavu
@pytest.mark.parametrize("weight,suffix", [("normal", ""), ("bold", "-Bold")])
def test_the_width_table_is_the_fonts_own(weight, suffix):
    """rules/core/fontwidth.py against DejaVu Sans itself (Pillow, which cairosvg brings), on the
    maps' words in both languages: the placer's estimate is what the picture will take."""
    font = ImageFont.truetype(DEJAVU_SANS.format(suffix), 1000)
    samples = [english(k) for k in lw_words.WORDS] + [v for v in lw_words.WORDS.values() if isinstance(v, str)]
    for text in samples + ["Ёлки-палки «№ 5» — ×3", "ЖЩШЮЫ жщшюы"]:
        assert text_width(text, 1000, weight) == pytest.approx(font.getlength(text), rel=0.01, abs=2), text
