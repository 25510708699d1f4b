"""The board layer of a map (rules/core/MAPS.md): the root's first child, drawn under the view, and
the same for every view of the board whatever the view shows - so nothing a viewer may not see can
be in it, and a mail's picture may draw it once for all of them (campaigns/mailout/pictures.py)."""

import random

from rules import catalog
from rules.core.mapsvg import BOARD_CLOSE, BOARD_OPEN
from rules.core.protocol import Viewer


def board_of(svg: str) -> str:
    head, found, rest = svg.partition(BOARD_OPEN)
    assert found and head.count("<") == 1 and head.lstrip().startswith("<svg")  # the root's first child
    board, closed, _ = rest.partition(BOARD_CLOSE)
    assert closed
    return board


def test_the_civil_war_board_layer_is_the_same_for_every_view_and_holds_none_of_it():
    rs = catalog.get("civilwar")
    state = rs.set_up(rs.load_scenario(None), random.Random(1))
    views = {side: rs.view(state, Viewer(role="player", side=side)) for side in ("red", "blue")}
    svgs = {side: rs.render_svg(view, crop=True) for side, view in views.items()}
    boards = {side: board_of(svg) for side, svg in svgs.items()}
    assert boards["red"] == boards["blue"]
    board = boards["red"]
    assert 'class="unit"' not in board and 'class="node"' in board  # road points yes, units never
    for unit in views["red"]["units"]:
        assert f'data-id="{unit["point"]}"' not in board
    # a view with other units, tokens and status draws the same board
    moved = dict(views["red"], units=[], tokens={}, counters={})
    assert board_of(rs.render_svg(moved, crop=True)) == board


def test_the_board_layer_speaks_the_readers_language():
    rs = catalog.get("civilwar")
    state = rs.set_up(rs.load_scenario(None), random.Random(1))
    view = rs.view(state, Viewer(role="player", side="red"))
    assert board_of(rs.render_svg(view, lang="ru")) != board_of(rs.render_svg(view, lang="en"))
