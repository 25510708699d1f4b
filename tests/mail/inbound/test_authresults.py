"""campaigns.mailin.authresults reads every header exactly as the authres library does."""

import authres
import pytest

from campaigns.mailin import authresults

OURS = "mx.kriegsbrief.localhost"
HEADERS = [
    f"{OURS}; dkim=pass; dmarc=pass",
    f"{OURS}; none",
    f"{OURS}; NONE",
    f'{OURS}; DKIM=Pass REASON="good" Header.D=example.org',
    f"{OURS} 1; spf=pass smtp.mailfrom=example.net",
    # OpenDKIM, SPF and DMARC milters as Gmail-like mail reaches our MTA: comments, several properties.
    f"{OURS}; dkim=pass (2048-bit key; unprotected) header.d=gmail.com header.i=@gmail.com"
    " header.a=rsa-sha256 header.s=20230601 header.b=AbCdEf12; spf=pass (mx.kriegsbrief.localhost:"
    " domain of bob@gmail.com designates 209.85.128.41 as permitted sender) smtp.mailfrom=bob@gmail.com;"
    " dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com; arc=none",
    f'{OURS} (our (nested) comment); dkim=fail reason="signature did not verify" header.d=example.org',
    f'{OURS}; auth=pass (cram-md5) smtp.auth="bob smith"@example.net; iprev=pass policy.iprev=192.0.2.200',
    f"{OURS};\r\n\tdkim=pass header.d=EXAMPLE.org;\r\n\tdmarc=fail header.from=example.org",
    f"{OURS}; dkim/1=pass header.d=example.org; sender-id=fail header.from=example.com",
    f"{OURS}; spf=softfail smtp.mailfrom=@example.com; dkim=neutral (bad format) header.i=\\@x",
    f"{OURS}; dkim=pass header.d=example.org unknown.prop=1 header.s=sel",
    f"{OURS}; dkim=pass x-foo=bar",
    # Not readable: the same error must come out of both.
    "",
    f"{OURS}",
    f"{OURS}; dkim",
    f"{OURS}; dkim=pass (unclosed comment",
    f"{OURS} 2; dkim=pass",
    f'{OURS}; dkim=pass header.d="unterminated',
    "; dkim=pass",
    f"{OURS}; dkim=pass; ; spf=pass",
]


def outcome(parse, value):
    try:
        header = parse(value)
    except Exception as exc:
        return ("error", type(exc).__name__, exc.args)
    results = [
        (
            str(r.method),
            r.version,
            str(r.result),
            r.reason,
            [(str(p.type), str(p.name), str(p.value)) for p in r.properties],
        )
        for r in header.results
    ]
    return (str(header.authserv_id), header.version, results, str(header))


@pytest.mark.parametrize("value", HEADERS)
def test_same_reading_as_the_library(value):
    library = outcome(authres.AuthenticationResultsHeader.parse_value, value)
    assert outcome(authresults.parse_value, value) == library


def test_the_corpus_has_readable_and_unreadable_headers():
    # The comparison above means something only if both kinds are in it.
    kinds = {outcome(authresults.parse_value, value)[0] == "error" for value in HEADERS}
    assert kinds == {True, False}
