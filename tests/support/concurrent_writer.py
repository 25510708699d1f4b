"""One writer process for the concurrency test: append EACH events to a game.

Run as: python -m tests.support.concurrent_writer DB_URL GAME_ID WRITER EACH [lock]
Prints the number of conflicts it met (and retried).
"""

import os
import sys


def main(db_url: str, game_id: int, writer: int, each: int, lock: bool = False) -> int:
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")
    import django

    django.setup()
    from django.db import transaction

    from campaigns.turns import gamelog
    from campaigns.turns.gamelog import Draft
    from rules.core.protocol import RuleEvent

    conflicts = 0
    for i in range(each):
        draft = Draft(
            1,
            RuleEvent(
                "orders.submitted",
                {"turn": 1, "side": "red", "source": "test", "text": f"# writer {writer} item {i}"},
                audience="side:red",
            ),
        )
        while True:
            try:
                if lock:  # as commands do: the game row locked, then the append
                    with transaction.atomic():
                        gamelog.append(gamelog.load(game_id, lock=True), [draft])
                else:
                    gamelog.append(gamelog.load(game_id), [draft])
                break
            except gamelog.ConcurrencyConflict:
                conflicts += 1
    return conflicts


if __name__ == "__main__":
    url, game, writer, each = sys.argv[1:5]
    print(main(url, int(game), int(writer), int(each), lock=sys.argv[5:6] == ["lock"]))
