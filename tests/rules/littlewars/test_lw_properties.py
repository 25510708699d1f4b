"""Property tests: conservation, determinism, move limits, nobody inside a building; fold is pure."""

import copy
import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.littlewars import RULESET as RS
from rules.littlewars.table import table_of
from rules.littlewars.testing import bot_orders, cj, fold_all, new_game
from rules.littlewars.units import ARMS, SIDES

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_BASE = {}


def base(name="skirmish"):
    """A game on turn 2 (deployed, one turn played), built once."""
    if name not in _BASE:
        state = new_game(name, 5)
        for _ in range(2):
            orders = {s: RS.parse_orders(state, s, bot_orders(state, s)).orders for s in SIDES}
            state = fold_all(state, RS.adjudicate(state, orders, random.Random(7)))
        _BASE[name] = state
    return _BASE[name]


point = st.tuples(st.floats(0, 48), st.floats(0, 36))


@st.composite
def orders_text(draw, state, side):
    """Random orders, legal or not: moves anywhere, fire anywhere, splits and surrenders."""
    lines = []
    for name in sorted(state["groups"][side]):
        kind = draw(st.sampled_from(["move", "line", "hold", "surrender", "split"]))
        x, y = draw(point)
        if kind == "move":  # near the group's centre, so that many are in range
            ids = state["groups"][side][name]
            cx = sum(state["figures"][i]["x"] for i in ids) / len(ids)
            cy = sum(state["figures"][i]["y"] for i in ids) / len(ids)
            dx, dy = draw(st.floats(-16, 16)), draw(st.floats(-16, 16))
            lines.append(f"move {name} to {cx + dx:.2f},{cy + dy:.2f}")
        elif kind == "line":
            x2, y2 = draw(point)
            lines.append(f"move {name} line {x:.2f},{y:.2f} {x2:.2f},{y2:.2f}")
        elif kind == "surrender":
            lines.append(f"surrender {name}")
        elif kind == "split":
            lines.append(f"split {name} {draw(st.integers(1, 4))} as {name}x")
    for g in state["guns"].values():
        if g["owner"] == side and draw(st.booleans()):
            aims = draw(st.lists(point, min_size=1, max_size=4))
            lines.append(f"fire {g['name']} at " + " ".join(f"{a:.1f},{b:.1f}" for a, b in aims))
    return "\n".join(lines)


def _statuses(state):
    out = {}
    for f in state["figures"].values():
        out[f["st"]] = out.get(f["st"], 0) + 1
    return out


@SETTINGS
@given(st.data(), st.integers(0, 2**32 - 1))
def test_random_turns_keep_every_invariant(data, seed):
    state = base()
    text = {s: data.draw(orders_text(state, s)) for s in SIDES}
    orders = {s: RS.parse_orders(state, s, text[s]).orders for s in SIDES}
    before = copy.deepcopy(state)
    events = RS.adjudicate(state, orders, random.Random(seed))
    assert state == before  # adjudication never mutates its input
    after = fold_all(state, events)
    assert state == before  # nor does fold
    # conservation: every figure is alive, dead, a prisoner or absent; none appears or vanishes
    assert sum(_statuses(after).values()) == len(state["figures"])
    assert set(after["figures"]) == set(state["figures"])
    for fid, f in after["figures"].items():
        if f["st"] == "dead":
            continue
        b = state["figures"][fid]
        if b["st"] == "dead":
            raise AssertionError(f"{fid} came back to life")
        limit = ARMS[b["arm"]]["move"] if b["st"] == "ok" else ARMS["inf"]["move"]
        assert math.dist((b["x"], b["y"]), (f["x"], f["y"])) <= limit + 1e-6  # no move beyond its limit
    assert RS.check_invariants(after) == []  # includes: nobody inside or touching a building
    # determinism: the same seed and orders give the same events
    again = RS.adjudicate(state, orders, random.Random(seed))
    assert cj([[e.type, e.payload, e.audience] for e in again]) == cj([[e.type, e.payload, e.audience] for e in events])


@SETTINGS
@given(st.data())
def test_validated_orders_are_carried_out_exactly(data):
    """Valid moves that meet no enemy end exactly where validation said, within their allowance."""
    state = base()
    side = data.draw(st.sampled_from(SIDES))
    text = data.draw(orders_text(state, side))
    parsed = RS.parse_orders(state, side, text)
    bad = {e.line for e in RS.validate(state, side, parsed.orders)}
    good = [o for o in parsed.orders if o.line not in bad]
    events = RS.adjudicate(state, {side: good}, random.Random(1))
    after = fold_all(state, events)
    table = table_of(state["scenario"])
    for f in after["figures"].values():
        if f["st"] == "ok":
            assert table.spot_error(f["arm"], f["x"], f["y"]) is None
    assert not [e for e in events if e.type == "littlewars.orders_rejected"]
