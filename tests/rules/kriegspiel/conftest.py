"""Helpers for the Kriegspiel rule tests: a game driven through the rule set, exactly as the platform does."""

import json
import random

import pytest

from rules.core.protocol import Viewer
from rules.kriegspiel.ruleset import RULESET
from rules.littlewars.invariants import check_turn


class KsGame:
    """A Kriegspiel game: setup, then turns of text orders; keeps every event with its audience."""

    def __init__(self, scenario=None, seed=1):
        self.rs = RULESET
        self.state = self.rs.initial_state()
        self.events = []
        self._apply(self.rs.setup(scenario, random.Random(seed)))
        self.rejected = {}
        self.check = True  # a test that places things where the rules never would turns this off

    def _apply(self, events):
        for ev in events:
            self.state = self.rs.fold(self.state, ev.type, ev.payload)
            self.events.append(ev)

    def turn(self, seed=0, **orders):
        parsed = {}
        for side in self.rs.sides:
            p = self.rs.parse_orders(self.state, side, orders.get(side, "hold"))
            assert p.ok, p.errors
            parsed[side] = p.orders
        self.rejected = {s: self.rs.validate(self.state, s, parsed[s]) for s in parsed}
        new = self.rs.adjudicate(self.state, parsed, random.Random(seed))
        self._apply(new)
        if self.check:  # after every adjudication (issue 15 item 8)
            assert self.rs.check_invariants(self.state) == [], self.rs.check_invariants(self.state)
            assert check_turn(new) == [], check_turn(new)
        return new

    def deploy(self):
        return self.turn()

    def view(self, side=None, role="player"):
        return self.rs.view(self.state, Viewer(role if side or role == "umpire" else "observer", side))

    def seen_by(self, side):
        """Everything ``side`` can read from the rules: its view, map, and the events it may see, worded."""
        viewer = Viewer("player", side)
        view = self.rs.view(self.state, viewer)
        visible = [
            (e.type, e.audience, json.dumps(dict(e.payload), sort_keys=True), self.rs.describe_event(e.type, e.payload))
            for e in self.events
            if viewer.may_see(e.audience)
        ]
        return json.dumps(view, sort_keys=True), self.rs.render_svg(view), visible

    def place(self, moves: dict):
        """Put figures where a test needs them (a test fixture, not a game action)."""
        figs = dict(self.state["figures"])
        for fid, (x, y) in moves.items():
            figs[fid] = {**figs[fid], "x": float(x), "y": float(y)}
        self.state = {**self.state, "figures": figs}


@pytest.fixture
def game():
    g = KsGame()
    g.deploy()
    return g


@pytest.fixture
def new_game():
    return KsGame
