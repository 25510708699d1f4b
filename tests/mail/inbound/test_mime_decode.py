"""mime.decode skips the stdlib's decoding where a value has no encoded word: the same text."""

from email.header import decode_header, make_header

import pytest

from campaigns.mailin import mime

PLAIN = [
    "",
    "Re: [Kriegsbrief] turn 1",
    "  folded\r\n\tover two lines  ",
    "Алиса <alice@example.org>",
    "bytes read raw: \udcd0\udcb0 and \x00 and 😀",
    'quoted "=" and ? apart, (comment) \\ escaped',
]


@pytest.mark.parametrize("value", PLAIN)
def test_a_value_without_encoded_words_reads_as_the_stdlib_reads_it(value):
    assert mime.decode(value) == " ".join(str(make_header(decode_header(value))).split())


def test_encoded_words_are_still_decoded():
    assert mime.decode("=?utf-8?b?0J/RgNC40LLQtdGC?=\r\n =?utf-8?q?_mir?=") == "Привет mir"
