# Run by tests/golden/test_upgrade_from_0_1_0.py inside `manage.py shell -c` against the upgraded
# database: every page, map and API view of every game for every seat's user (and the umpire's
# pages), as a Django test client fetches them; prints one JSON line of what answered what.
import json

from django.test import Client

from campaigns.models import Game
from kriegsbrief import health

statuses = {}
fetched = 0
for game in Game.objects.order_by("pk"):
    urls = [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/map.svg",
        f"/games/{game.pk}/verification/",
        f"/games/{game.pk}/seats/",
        f"/games/{game.pk}/umpire/",
        f"/api/games/{game.pk}/",
        f"/api/games/{game.pk}/view/",
        f"/api/games/{game.pk}/events/",
        f"/api/games/{game.pk}/map.svg",
    ] + [f"/games/{game.pk}/turns/{n}/" for n in range(1, game.turn_number)]
    for seat in game.seats.select_related("user").exclude(user=None):
        client = Client()
        client.force_login(seat.user)
        for url in urls:
            resp = client.get(url)
            fetched += 1
            key = f"{seat.role}:{seat.side or '-'} {url}"
            statuses[key] = resp.status_code
print(json.dumps({"fetched": fetched, "statuses": statuses, "healthz": health.check_broker()}))
