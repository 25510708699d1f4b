import sys
import uuid
from contextlib import nullcontext

from django.core.management.base import BaseCommand, CommandError

from campaigns.battles.portable import export_lines
from campaigns.models import Campaign


def get_campaign(ref: str) -> Campaign:
    try:
        return Campaign.objects.get(pk=int(ref)) if ref.isdigit() else Campaign.objects.get(uid=uuid.UUID(ref))
    except (Campaign.DoesNotExist, ValueError):
        raise CommandError(f"no campaign {ref!r} (give its id or uid)") from None


class Command(BaseCommand):
    help = (
        "Export a whole campaign as one JSON Lines file: its header, every game's complete export "
        "(as export_game writes it) and the campaign's record with its hashes."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign", help="campaign id or uid")
        parser.add_argument("-o", "--out", "--output", dest="output", help="file to write (default: stdout)")

    def handle(self, *args, **opts):
        campaign = get_campaign(opts["campaign"])
        with open(opts["output"], "w", encoding="utf-8") if opts["output"] else nullcontext(sys.stdout) as out:
            for line in export_lines(campaign):
                out.write(line + "\n")
