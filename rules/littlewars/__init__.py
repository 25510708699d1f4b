"""Little Wars (H. G. Wells, seed 000, main part) as a simultaneous play-by-mail rule set.

Pure Python (shapely, networkx): no Django here. The platform talks to ``RULESET``.

Public extension points, for a variant built on this engine (rules/kriegspiel does):

- the turn's steps on any ``adjudicate.TurnLog``: ``emit_surrenders``, ``emit_prisoners``,
  ``emit_turn_end``; ``adjudicate.setup``, ``next_turn``, ``default_orders``;
- the planner: ``plan.build``/``build_spaced`` with a variant's ``PathCheck`` for moves and guns,
  ``plan.Plan`` (``owner_line``, ``line_text``), ``claim_figures``, ``group_key``, ``gun_of``,
  ``resolve``, ``OrderRefused``;
- the order language: ``orders.read_by_rules`` with a variant's ``LineRule`` list, ``parse_text``,
  ``parse_points``, ``ORDER_VERBS``, ``CORE_HELP``;
- the fold: ``fold.fold``, ``capture_figures``, ``drop_from_groups``, ``next_name``, ``play_turn``;
- scenarios: ``scenario.load``, ``builtin_scenario``, ``require``, ``read_point``, ``mirror``;
- the table and figures: ``table.table_of``, ``path_length``; ``geom``, ``units``; the test
  harness ``testing`` (``build``, ``fuzz_game`` with a variant's ``LineMaker`` list).

A name with a leading underscore is this package's own and may change without notice.
"""

from .ruleset import RULESET, LittleWars

__all__ = ["RULESET", "LittleWars"]
