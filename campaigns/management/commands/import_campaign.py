import sys

from django.core.management.base import BaseCommand, CommandError

from campaigns.battles.portable import ImportRejected, import_stream


class Command(BaseCommand):
    help = (
        "Import a whole campaign (export_campaign's file) into a database that holds neither it nor any "
        "of its games: every game with its uid and hashes, the record as it was; all or nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="export file, or - for stdin")

    def handle(self, *args, **opts):
        try:
            if opts["file"] == "-":
                campaign = import_stream(sys.stdin)
            else:
                with open(opts["file"], encoding="utf-8") as fh:
                    campaign = import_stream(fh)
        except (ImportRejected, OSError) as exc:
            raise CommandError(f"refused, nothing imported: {exc}") from None
        self.stdout.write(
            f"imported campaign {campaign.pk} {campaign.uid} {campaign.name!r}: "
            f"{campaign.games.count()} games, {campaign.record.count()} record entries"
        )
