"""HTML mail to plain text, with quoted parts marked as quotes.

Mail clients that send HTML only wrap the message they answer in markup of
their own: ``<blockquote>`` (Apple Mail, Thunderbird, Gmail), a
``gmail_quote`` div (Gmail), or a ``divRplyFwdMsg``/``appendonsend`` block
after which the whole original follows unmarked (Outlook). Quoted text comes
out with a ``> `` prefix so the same quote rules as for plain text apply.
"""

from __future__ import annotations

from html.parser import HTMLParser

BLOCK_TAGS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "hr", "blockquote"}
SKIP_TAGS = {"style", "script", "head", "title"}
# Elements whose content is quoted mail.
QUOTE_CLASSES = {"gmail_quote", "gmail_quote_container", "moz-cite-prefix", "yahoo_quoted"}
# Outlook: everything after one of these is the quoted original.
REST_IS_QUOTE_IDS = {"divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container"}
MAX_QUOTE_PREFIX = 5
VOID_TAGS = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base"}


class _Converter(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = []  # (quote depth, text)
        self.current: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, opened a quote)
        self.depth = 0
        self.skip = 0
        self.rest_quoted = False

    def _flush(self):
        text = "".join(self.current).replace("\xa0", " ")
        self.current = []
        depth = self.depth + (1 if self.rest_quoted else 0)
        for line in text.split("\n"):
            self.lines.append((depth, line.rstrip()))

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in SKIP_TAGS:
            self.skip += 1
            return
        if tag in BLOCK_TAGS:
            self._flush()
        if (attrs.get("id") or "").lower() in REST_IS_QUOTE_IDS:
            self.rest_quoted = True
        quote = tag == "blockquote" or bool(QUOTE_CLASSES & set((attrs.get("class") or "").split()))
        if tag not in VOID_TAGS:
            self.stack.append((tag, quote))
            self.depth += quote

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
            return
        if tag in BLOCK_TAGS:
            self._flush()
        # Pop to the matching tag: mail HTML is often not well formed.
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for _, quote in self.stack[i:]:
                    self.depth -= quote
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.skip:
            # Whitespace in HTML source is not layout; only tags make lines.
            self.current.append(" ".join(data.split("\n")) if "\n" in data else data)

    def text(self) -> str:
        self._flush()
        out = []
        for depth, line in self.lines:
            line = " ".join(line.split())
            # Any depth is "quoted"; a cap keeps 10,000 nested blockquotes from multiplying every line.
            out.append(("> " * min(depth, MAX_QUOTE_PREFIX) + line).rstrip() if depth else line)
        # Collapse runs of blank lines that block markup leaves behind.
        collapsed = []
        for line in out:
            if line or (collapsed and collapsed[-1]):
                collapsed.append(line)
        return "\n".join(collapsed).strip("\n")


def html_to_text(html: str) -> str:
    conv = _Converter()
    conv.feed(html)
    conv.close()
    return conv.text()
