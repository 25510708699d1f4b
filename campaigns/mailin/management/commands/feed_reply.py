"""Play by "mail" with no mail server: feed a reply to a report in the outbox folder.

  ./kb feed_reply var/outbox/<report>.eml orders.txt     reply with the text of a file
  ./kb feed_reply var/outbox/<report>.eml -              ... or of standard input
  ./kb feed_reply --latest-for red@demo.localhost orders.txt   the newest report to that address
  ./kb feed_reply --latest-for red@demo.localhost --game 2 orders.txt   ... in game 2 (needed when
                                                         that address plays in more than one game)
  ./kb feed_reply --eml reply.eml                        a whole message written elsewhere

A reply is built as a mail client would: From the report's recipient, To the
report's Reply-To (the seat's secret address), In-Reply-To the report, the
report quoted below the text. It then goes through the same ingestion
function as real mail.

``--latest-for`` never answers another game's mail by accident: the address must be the report's
own recipient (not a longer address that contains it), and when the reports to it come from more
than one game it refuses until ``--game`` says which (the report's X-Kriegsbrief-Game header).
"""

import sys
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import formatdate, getaddresses, make_msgid
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from campaigns.mailin import ingest
from campaigns.models import Game


def build_reply(report_bytes: bytes, text: str) -> bytes:
    report = BytesParser(policy=policy.default).parsebytes(report_bytes)
    to = report.get("Reply-To") or report.get("From")
    frm = report.get("To")
    if not to or not frm:
        raise CommandError("the report has no Reply-To/From or no To header: is it a Kriegsbrief report?")
    body = report.get_body(preferencelist=("plain",))
    quoted = "\n".join("> " + line for line in (body.get_content() if body else "").splitlines())
    msg = EmailMessage()
    msg["From"], msg["To"] = str(frm), str(to)
    subject = str(report.get("Subject", ""))
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Date"] = formatdate(localtime=True)
    msg["Message-ID"] = make_msgid(domain="feed-reply.localhost")
    if report.get("Message-ID"):
        msg["In-Reply-To"] = str(report["Message-ID"])
        msg["References"] = " ".join(filter(None, [str(report.get("References", "")), str(report["Message-ID"])]))
    msg.set_content(
        f"{text.rstrip()}\n\nOn {report.get('Date', 'an earlier date')}, {report.get('From')} wrote:\n{quoted}\n"
    )
    return msg.as_bytes()


class Command(BaseCommand):
    help = "Feed a reply to a report .eml from the outbox folder (or a whole .eml) into mail ingestion."

    def add_arguments(self, parser):
        parser.add_argument("report", nargs="?", help="the report .eml being answered")
        parser.add_argument("text", nargs="?", help="file with the reply text, or - for standard input")
        parser.add_argument("--eml", help="a complete reply message to feed as it is")
        parser.add_argument(
            "--latest-for",
            metavar="EMAIL",
            help="answer the newest report in OUTBOX_DIR sent to EMAIL; the one argument is the text",
        )
        parser.add_argument("--game", metavar="ID", help="with --latest-for: only reports of this game (its id)")

    def handle(self, *args, report=None, text=None, eml=None, latest_for=None, game=None, **options):
        if latest_for:
            report, text = str(latest_report(latest_for, game)), report  # the one positional is the text
        if eml:
            raw = _read(eml)
        elif report and text:
            reply_text = sys.stdin.read() if text == "-" else _read(text).decode("utf-8", "replace")
            raw = build_reply(_read(report), reply_text)
        else:
            raise CommandError("give a report .eml and a text file (or -), or --eml with a whole message")
        row = ingest.ingest(raw, via="file")
        self.stdout.write(f"inbound message {row.pk}: {row.status}{': ' + row.error if row.error else ''}")


def latest_report(email: str, game: str | None = None) -> Path:
    """The newest .eml in OUTBOX_DIR addressed to ``email`` that carries a Reply-To, of ``game`` (an id)
    if given; refused when, without ``game``, the reports to ``email`` come from more than one game."""
    outbox = Path(settings.OUTBOX_DIR)
    wanted = _game_uid(game) if game else None
    parser = BytesHeaderParser(policy=policy.default)
    found = {}  # game uid -> newest report
    for path in sorted(outbox.glob("*.eml"), reverse=True):  # names start with a timestamp
        with path.open("rb") as fh:
            headers = parser.parse(fh)
        recipients = [addr.lower() for _, addr in getaddresses([str(v) for v in headers.get_all("To", [])])]
        uid = str(headers.get("X-Kriegsbrief-Game", ""))
        if headers.get("Reply-To") and email.lower() in recipients and wanted in (None, uid):
            found.setdefault(uid, path)
    if not found:
        raise CommandError(f"no report to {email} with a Reply-To in {outbox}" + (f" for game {game}" if game else ""))
    if len(found) > 1:
        games = {str(g.uid): f"{g.pk} ({g.name})" for g in Game.objects.filter(uid__in=[u for u in found if u])}
        raise CommandError(
            f"{email} has reports from {len(found)} games: "
            f"{', '.join(games.get(u, u or 'unknown') for u in found)}; say which with --game ID"
        )
    return next(iter(found.values()))


def _game_uid(game: str) -> str:
    try:
        return str(Game.objects.get(pk=int(game)).uid)
    except (ValueError, Game.DoesNotExist):
        raise CommandError(f"no game with id {game}") from None


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
