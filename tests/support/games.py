"""Games for the tests: a game's folded state (the one ``state_of``), legal Civil War orders, turns
played through the commands, games made with the shared people (tests/conftest.py)."""

from campaigns.log.eventstore import Draft
from campaigns.models import Campaign
from campaigns.turns import commands, creation, gamelog
from rules import catalog
from rules.civilwar import legal_operations
from rules.core.protocol import RuleEvent, side_audience


def state_of(game):
    """The game's lifecycle state (campaigns.turns.state.LifecycleState) as the log folds it now."""
    return gamelog.load(game.pk).state


def legal_op(game, side="red", index=0):
    return legal_operations(state_of(game).rules, side)[index]


def legal_red_orders(game) -> list[str]:
    return legal_operations(state_of(game).rules, "red")


def red_opening(game) -> str:
    """A legal first order for red: form a unit in a city that sympathises with red."""
    tokens = state_of(game).rules["tokens"]
    city = sorted((c for c, face in tokens.items() if face == "red"), key=lambda c: int(c[1:]))[0]
    return f"form {city}"


def orders_of(game, side):
    return state_of(game).turn.orders.get(side)


def play_one(game, source="web"):
    """Submit a legal order for the side to move; return the order text."""
    state = state_of(game)
    side = state.turn.sides[0]
    text = legal_operations(state.rules, side)[0] if state.turn.kind == "orders" else None
    if text is None:
        text = catalog.get("civilwar").default_orders(state.rules, side, "decision")
    result = commands.submit_orders(game.pk, side, text, source=source, by="test")
    assert result.accepted, result.errors
    return side, text


def new_game_with_people(people, ruleset: str, scenario, campaign: str):
    """A game of ``ruleset``: alice umpires, bob plays red, carol blue."""
    return creation.create_game(
        campaign=Campaign.objects.create(name=campaign),
        name=f"{campaign} {scenario}",
        ruleset=ruleset,
        scenario=scenario,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )


def grow_log(game, events: int, text_red: str) -> None:
    """``events`` more orders in the open turn, the two sides' by turns (each private to its side)."""
    number = game.turn_number
    for start in range(0, events, 2000):
        stream = gamelog.load(game.pk)
        drafts = [
            Draft(
                number,
                RuleEvent(
                    "orders.submitted",
                    {
                        "turn": number,
                        "side": side,
                        "text": text_red if side == "red" else "hold",
                        "source": "api",
                        "by": "bench",
                    },
                    audience=side_audience(side),
                ),
            )
            for side in (("red", "blue")[i % 2] for i in range(start, min(events, start + 2000)))
        ]
        gamelog.append(stream, drafts)
