import uuid

from django.core.management.base import BaseCommand, CommandError

from campaigns.battles.verify import verify_campaign
from campaigns.models import Campaign


class Command(BaseCommand):
    help = (
        "Verify a campaign: its record's hash chain, every game's log (verify_game), and each battle's "
        "links (the battle log's head its result was read from, the result in the strategic log)."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign", help="a campaign's id or uid, or 'all'")

    def handle(self, *args, **opts):
        if opts["campaign"] == "all":
            campaigns = list(Campaign.objects.order_by("pk"))
        else:
            given = opts["campaign"]
            # its id here, or its uid (which it keeps when it moves: export_campaign / import_campaign)
            found = Campaign.objects.filter(pk=int(given)) if given.isdigit() else Campaign.objects.none()
            if not given.isdigit():
                try:
                    found = Campaign.objects.filter(uid=uuid.UUID(given))
                except ValueError:
                    pass
            campaigns = list(found)
            if not campaigns:
                raise CommandError(f"no campaign {given!r} (give its id, its uid, or 'all')")
        failed = 0
        for campaign in campaigns:
            report = verify_campaign(campaign)
            status = "OK" if report.ok else "FAILED"
            self.stdout.write(
                f"campaign {campaign.pk} {campaign.name!r}: {status} — {report.games} games, {report.battles} battles"
            )
            for problem in report.problems:
                self.stdout.write(f"  {problem}")
            failed += not report.ok
        if failed:
            raise CommandError(f"{failed} campaign(s) failed verification")
