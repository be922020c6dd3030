"""Abstracts and bios as HTML: Markdown (CommonMark, markdown-it-py), then an allow-list
sanitizer (nh3); and the same text as one plain line for descriptions.

Imported text is mostly plain, sometimes Markdown (pretalx and frab abstracts carry
`[text](https://…)` links and lists). Plain text renders as Django's `urlize|linebreaks` did:
a blank line starts a paragraph, a line break is a <br>, a bare http(s) address is a link.
So that plain text stays plain, indented lines are not code blocks (frab abstracts indent
paragraphs), and headings are shifted below the page's own (# becomes <h3>).

Raw HTML in the source is text (markdown-it escapes it); what the renderer writes still goes
through nh3, whose allow-list keeps only the elements below, and links only to http(s) and
mailto: addresses, marked rel="nofollow" (imported, so not endorsed by the site).
"""

from __future__ import annotations

import re

import nh3
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

ALLOWED_TAGS = frozenset(
    {"p", "br", "a", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "hr"}
    | {"h3", "h4", "h5", "h6", "del", "s"}
)
ALLOWED_SCHEMES = ("http://", "https://", "mailto:")
LINK_REL = "nofollow"  # as urlize wrote it; no target="_blank", so no need for noopener

# A bare web address as Django's urlize found one: up to white space or markup, less trailing
# punctuation (a closing bracket only when it closes nothing in the address).
_BARE_URL = re.compile(r"\bhttps?://[^\s<>\"'`]+", re.IGNORECASE)
_TRAILING = ".,:;!?'\""
_HEADING_SHIFT = 2


def _bare_url_end(url: str) -> str:
    while url:
        if url[-1] in _TRAILING:
            url = url[:-1]
        elif url[-1] == ")" and url.count("(") < url.count(")"):
            url = url[:-1]
        else:
            break
    return url


def _link_bare_urls(state: StateCore) -> None:
    """A core rule (markdown-it's own linkify needs linkify-it-py): text outside links and
    code that holds http(s) addresses becomes text and links."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        inside_link = 0
        for token in block.children:
            if token.type == "link_open":
                inside_link += 1
            elif token.type == "link_close":
                inside_link -= 1
            if token.type != "text" or inside_link or "://" not in token.content:
                children.append(token)
                continue
            children += _split_text(token)
        block.children = children


def _split_text(token: Token) -> list[Token]:
    out: list[Token] = []
    text = token.content
    position = 0
    for match in _BARE_URL.finditer(text):
        if match.start() < position:
            continue
        url = _bare_url_end(match[0])
        if "://" not in url or url.endswith("://"):
            continue
        if match.start() > position:
            out.append(_text(text[position : match.start()], token.level))
        opening = Token("link_open", "a", 1, level=token.level, attrs={"href": url})
        out += [opening, _text(url, token.level + 1), Token("link_close", "a", -1)]
        position = match.start() + len(url)
    if position < len(text):
        out.append(_text(text[position:], token.level))
    return out


def _text(content: str, level: int) -> Token:
    return Token("text", "", 0, level=level, content=content)


def _shift_headings(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in {"heading_open", "heading_close"}:
            token.tag = f"h{min(int(token.tag[1]) + _HEADING_SHIFT, 6)}"


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "breaks": True, "xhtmlOut": False})
    md.disable("code")  # an indented line is a paragraph's, as it was before Markdown
    md.core.ruler.push("link_bare_urls", _link_bare_urls)
    md.core.ruler.push("shift_headings", _shift_headings)
    return md


_MARKDOWN = _markdown()


def _only_our_schemes(tag: str, attribute: str, value: str) -> str | None:
    if tag == "a" and attribute == "href":
        return value if value.lower().startswith(ALLOWED_SCHEMES) else None
    return value


def render_rich_text(text: str) -> str:
    """Safe HTML for an imported abstract or bio ("" for blank text)."""
    if not text or not text.strip():
        return ""
    html = _MARKDOWN.render(text)
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={"a": {"href", "title"}},
        url_schemes={"http", "https", "mailto"},
        link_rel=LINK_REL,
        attribute_filter=_only_our_schemes,
        strip_comments=True,
    ).strip()


def plain_text(text: str) -> str:
    """The text a reader of the rendered Markdown sees, on one line: link texts without their
    addresses, no emphasis marks (for meta and Open Graph descriptions)."""
    if not text:
        return ""
    words: list[str] = []
    for token in _MARKDOWN.parse(text):
        if token.type == "inline" and token.children:
            for child in token.children:
                if child.type in {"text", "code_inline"}:
                    words.append(child.content)
                elif child.type == "image":
                    words.append(child.content)
                elif child.type in {"softbreak", "hardbreak"}:
                    words.append(" ")
        elif token.type in {"code_block", "fence"}:
            words.append(token.content)
        words.append(" ")
    return " ".join("".join(words).split())
