"""quotes.read_replies reads every body exactly as mail-parser-reply's own parser does."""

import pytest
from mailparser_reply import EmailReplyParser

from campaigns.mailin import mime, quotes

from .test_clients import CORPUS

SNIPPETS = [
    "",
    "pass\nWAIT",
    "form C5\n\nCheers,\nBob\n\nSent from my iPhone",
    "orders below\nmove A1 to B2\n\nBest regards,\nJohn Smith\nACME Corp",
    "Hi umpire,\nREADY\n\nMit freundlichen Grüßen\nHans\n\nGesendet von meinem iPhone",
    "ready\n\n--\nBob\nThis e-mail and any attachments are confidential and intended solely for the addressee.",
    "pass\n\nOn Mon, 16 Nov 2026 at 09:00, Kriegsbrief <umpire@kriegsbrief.localhost> wrote:\n> turn 1\n",
    "ok\n________________________________\nFrom: Kriegsbrief\nSent: Monday\nTo: Bob\nSubject: turn",
    "Le lun. 16 nov. 2026 à 09:00, Kriegsbrief a écrit :\n> tour 1\nGET OUTLOOK FOR IOS",
    "- a list\n- of things\n\nThanks",
    "ready\n\nDisclaimer: this mail is confidential and meant for the addressee only.",
    "ready\n\nCONFIDENTIALITY: This e-mail and its attachments are private.\n",
]


def replies(message):
    return [(r.content, r.headers, r.signatures, r.disclaimers, r.body) for r in message.replies]


def bodies():
    yield from SNIPPETS
    for path in sorted(CORPUS.glob("*.eml")):
        try:
            yield mime.parse(path.read_bytes(), max_parts=50).body
        except mime.MimeError:  # the corpus's unreadable samples
            continue


@pytest.mark.parametrize("text", list(bodies()))
def test_same_replies_as_the_library(text):
    library = EmailReplyParser(languages=["en", "de", "fr"]).read(text)
    assert replies(quotes.read_replies(text)) == replies(library)


def test_the_bodies_have_signatures_and_several_replies():
    # The comparison above means something only if the library found something to cut in them.
    read = [quotes.read_replies(text) for text in bodies()]
    assert any(len(m.replies) > 1 for m in read)
    assert any(r.signatures for m in read for r in m.replies)
    assert any(r.disclaimers for m in read for r in m.replies)
