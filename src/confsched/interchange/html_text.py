"""Plain text of the HTML that programme files carry in abstracts and biographies.

frab, pentabarf, pretalx and iCalendar feeds put HTML, Markdown or plain text in the same
fields, and a confsched abstract is plain text. The c3voc JSON, frab XML and iCalendar readers
each decide whether a text is HTML and then convert it here, so that one piece of markup reads
the same whichever format it arrived in. The rules:

* Paragraph tags (<p>, <div>, <ul>, <h2>, <pre>, <table>, …) become blank lines; <br>, <tr>,
  <dt> and <dd> start a new line, <li> a "- " line; table cells are separated by a space.
* <script>, <style>, <head> and <title> are dropped with their content; entities unescaped.
* A link keeps its URL: "text (URL)", or the URL alone when the text is the address itself
  (with or without its scheme, or the address of a mailto: link). Relative links are made
  absolute against `base_url` when that is an absolute URL; "#…" and "javascript:" links
  leave only their text.
* With layout tags present the source's whitespace is layout: it collapses (line breaks come
  from the tags; <pre> keeps its line breaks) and lines are stripped. With only inline tags
  and <br> (Markdown with an <a> in it, text with a stray "</br>") the text's own line breaks
  and indentation stay, and a <br> at the end of a line counts once.
* Runs of blank lines become one; the result is stripped.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

_SKIPPED = frozenset({"script", "style", "head", "title"})
_PARAGRAPH_TAGS = frozenset(
    "address article aside blockquote div dl figcaption figure footer h1 h2 h3 h4 h5 h6 header "
    "hr main nav ol p pre section table ul".split()
)
_LINE_TAGS = frozenset({"br", "dd", "dt", "li", "tr"})
_CELL_TAGS = frozenset({"td", "th"})
# Tags that lay text out: with any of them, the source's own line breaks are not the text's.
# Not <br>: text that has it and no other layout tag still breaks its lines itself (frab's
# Markdown with a "</br>", nl2br's "<br />" at each line end).
_LAYOUT_TAGS = _PARAGRAPH_TAGS | (_LINE_TAGS - {"br"}) | _CELL_TAGS
_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
# A "<" that no ">" closes before the next "<"; each scan stops at the next "<", so it is linear.
_UNCLOSED = re.compile(r"<(?![^<>]*>)")
_HUGE_REFERENCE = re.compile(r"&#(?:0*[0-9]{8,}|[xX]0*[0-9a-fA-F]{7,});?")


def html_to_text(markup: str, *, base_url: str = "") -> str:
    """Plain text of an HTML fragment: paragraphs, list items and link URLs kept, tags dropped."""
    collapse = any(name.lower() in _LAYOUT_TAGS for name in _TAG.findall(markup))
    parser = _TextExtractor(base_url if _is_absolute(base_url) else "", collapse=collapse)
    # The standard parser rescans from every "<" that opens no complete tag, which is quadratic
    # ("<b " 10,000 times took 7 s); such a "<" is text, so it is written as text first.
    # A character reference no character has (more than 7 decimal or 6 hex digits): Python's
    # unescape would turn thousands of digits into an int and fail.
    markup = _HUGE_REFERENCE.sub("\ufffd", markup)
    parser.feed(_UNCLOSED.sub("&lt;", markup))
    parser.close()
    text = "".join(parser.parts)
    if collapse:
        text = "\n".join(line.strip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


class _TextExtractor(HTMLParser):
    """Collects text, marking paragraph breaks with "\\n\\n" and line breaks with "\\n"."""

    def __init__(self, base_url: str, *, collapse: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.base_url = base_url
        self.collapse = collapse
        self.parts: list[str] = []
        self.links: list[tuple[str, int]] = []  # href and where its text starts
        self.skipping = 0
        self.preformatted = 0
        self.after_br = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag in _PARAGRAPH_TAGS:
            self.parts.append("\n\n")
            self.preformatted += tag == "pre"
        elif tag in _LINE_TAGS:
            self.parts.append("\n- " if tag == "li" else "\n")
            self.after_br = tag == "br"
        elif tag in _CELL_TAGS:
            self.parts.append(" ")
        elif tag == "a":
            href = dict(attrs).get("href") or ""
            self.links.append((href.strip(), len(self.parts)))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _PARAGRAPH_TAGS:
            self.parts.append("\n\n")
            if tag == "pre" and self.preformatted:
                self.preformatted -= 1
        elif tag == "a" and self.links:
            self._end_link(*self.links.pop())

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.collapse and not self.preformatted:
            # HTML collapses whitespace across tags too: "a <b> b</b>" is "a b".
            data = re.sub(r"\s+", " ", data)
            if data.startswith(" ") and self._after_space():
                data = data[1:]
        elif not self.collapse and self.after_br and data.startswith("\n"):
            data = data[1:]  # "line<br>\n": one line break, not two
        self.after_br = False
        if data:
            self.parts.append(data)

    def _after_space(self) -> bool:
        """True when the text so far is empty or ends in whitespace."""
        last = next((part for part in reversed(self.parts) if part), "")
        return not last or last[-1].isspace()

    def _end_link(self, href: str, start: int) -> None:
        """Add the link's URL after its text, or put it in place of text that is the address."""
        if not href or href.startswith(("#", "javascript:")):
            return
        url = urljoin(self.base_url, href) if self.base_url else href
        address = url.removeprefix("mailto:")
        raw = "".join(self.parts[start:])
        label = raw.strip()
        lead = raw[: len(raw) - len(raw.lstrip())]
        trail = raw[len(lead) + len(label) :]
        bare = _SCHEME.sub("", url)
        # The URL is what a reader of plain text needs to follow the link; once is enough.
        if label in ("", url, href, address, url.rstrip("/"), bare, bare.rstrip("/")):
            text = address
        else:
            text = f"{label} ({url})"
        self.parts[start:] = [lead, text, trail]


def _is_absolute(url: str) -> bool:
    """True for a URL with scheme and host, the only base a relative link can be joined to."""
    parts = urlsplit(url)
    return bool(parts.scheme and parts.netloc)
