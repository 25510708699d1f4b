"""Reading what the SMTP sink received."""


def all_text(msg) -> str:
    """Every header and every decoded text part of a message, as one string."""
    out = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            out.append(part.get_content())
        elif not part.is_multipart():
            out.append(part.get_filename() or "")
    return "\n".join(out)


def part(msg, content_type: str):
    found = [p for p in msg.walk() if p.get_content_type() == content_type]
    assert found, f"no {content_type} part in {[p.get_content_type() for p in msg.walk()]}"
    return found[0]


def plain(msg) -> str:
    """The text/plain body with the wire's CRLF line ends made plain newlines."""
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
