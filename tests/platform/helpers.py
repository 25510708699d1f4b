"""Small helpers for platform tests: playing Civil War turns through the commands."""
from campaigns.turns import commands, gamelog
from rules.civilwar import legal_operations


def state_of(game):
    return gamelog.load(game.pk).state


def play_one(game, source="web"):
    """Submit a legal order for the side to move; return the order text."""
    state = state_of(game)
    side = state.turn.sides[0]
    text = legal_operations(state.rules, side)[0] if state.turn.kind == "orders" else None
    if text is None:
        from rules import catalog

        text = catalog.get("civilwar").default_orders(state.rules, side, "decision")
    result = commands.submit_orders(game.pk, side, text, source=source, by="test")
    assert result.accepted, result.errors
    return side, text
