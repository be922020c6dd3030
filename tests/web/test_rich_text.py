"""Abstracts and bios: Markdown rendered by markdown-it-py, sanitized by nh3, plain text plain."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from confsched.interchange.formats import parse_files
from confsched.programme.models import Event, Session, Speaker
from confsched.web.site.rich_text import plain_text, render_rich_text
from tests.conftest import DEMO_SLUG

REL = 'rel="nofollow"'
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def test_a_markdown_link_is_one_link() -> None:
    assert render_rich_text("Read [the paper](https://example.org/p?a=1&b=2) first.") == (
        f'<p>Read <a href="https://example.org/p?a=1&amp;b=2" {REL}>the paper</a> first.</p>'
    )


def test_plain_text_keeps_paragraphs_line_breaks_and_bare_links() -> None:
    text = "First line\nsecond line, see https://example.org/x.\n\n    Indented paragraph."
    assert render_rich_text(text) == (
        "<p>First line<br>\nsecond line, see "
        f'<a href="https://example.org/x" {REL}>https://example.org/x</a>.</p>\n'
        "<p>Indented paragraph.</p>"
    )


def test_a_bare_link_keeps_balanced_brackets_and_drops_trailing_punctuation() -> None:
    assert render_rich_text("(see https://en.wikipedia.org/wiki/Foo_(bar)), then") == (
        '<p>(see <a href="https://en.wikipedia.org/wiki/Foo_(bar)" '
        f"{REL}>https://en.wikipedia.org/wiki/Foo_(bar)</a>), then</p>"
    )


def test_emphasis_lists_and_code_are_kept() -> None:
    assert render_rich_text("**bold** and *em* and `https://not.a/link`\n\n- one\n- two") == (
        "<p><strong>bold</strong> and <em>em</em> and <code>https://not.a/link</code></p>\n"
        "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"
    )


def test_headings_sit_below_the_pages_own() -> None:
    assert render_rich_text("# Outline\n\n## Part") == "<h3>Outline</h3>\n<h4>Part</h4>"


@pytest.mark.parametrize(
    ("source", "html"),
    [
        ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
        ("<b onclick=x>b</b>", "<p>&lt;b onclick=x&gt;b&lt;/b&gt;</p>"),
        ("[j](javascript:alert(1))", "<p>[j](javascript:alert(1))</p>"),
        ("[d](data:text/html,x)", "<p>[d](data:text/html,x)</p>"),
        ("[r](/admin/)", f"<p><a {REL}>r</a></p>"),
        ("[f](ftp://example.org/f)", f"<p><a {REL}>f</a></p>"),
        ("![i](https://example.org/i.png)", "<p></p>"),
        ("<mailto:ada@example.org>", f'<p><a href="mailto:ada@example.org" {REL}>'
         "mailto:ada@example.org</a></p>"),
        ("   ", ""),
    ],
)  # fmt: skip
def test_raw_html_and_other_schemes_never_get_through(source: str, html: str) -> None:
    assert render_rich_text(source) == html


def test_plain_text_is_what_a_reader_sees_on_one_line() -> None:
    text = "Read [the paper](https://example.org/p) **now**.\n\n- one\n- two <b>x</b>"
    assert plain_text(text) == "Read the paper now. one two <b>x</b>"


def test_the_shared_samples_have_no_broken_links(shared_dir: Path) -> None:
    """38C3 and DebConf abstracts hold [text](https://…) links that urlize broke."""
    counts = {}
    for name in ("eventfahrplan_schedule-38c3-20251206.xml", "giggity_debconf23.xml"):
        path = shared_dir / "formats" / "samples" / "frab-xml" / name
        programme = parse_files([(name, path.read_bytes())], default_timezone="UTC")
        rendered = [render_rich_text(s.abstract) for s in programme.sessions]
        hrefs = [href for html in rendered for href in re.findall(r'href="([^"]*)"', html)]
        assert [
            h for h in hrefs if "](" in h or not h.startswith(("https://", "http://", "mailto:"))
        ] == []
        counts[name] = sum(1 for s in programme.sessions if re.search(r"\]\(https?://", s.abstract))
        assert sum(1 for html in rendered if "](http" in html) == 0
    assert counts == {"eventfahrplan_schedule-38c3-20251206.xml": 138, "giggity_debconf23.xml": 13}


def test_session_and_speaker_pages_render_markdown(client: Client, demo_event: Event) -> None:
    Session.objects.filter(event=demo_event, key=TORCHJD).update(
        abstract="See [our paper](https://arxiv.org/abs/2406.16232) and **more**."
    )
    speaker = Speaker.objects.filter(event=demo_event, session_links__session__key=TORCHJD)[0]
    speaker.bio = "Works on [TorchJD](https://github.com/TorchJD/torchjd)."
    speaker.save()
    demo_event.save()  # a new page version
    page = client.get(f"/{DEMO_SLUG}/sessions/{TORCHJD}/").content.decode()
    assert (
        f'<p>See <a href="https://arxiv.org/abs/2406.16232" {REL}>our paper</a> and '
        "<strong>more</strong>.</p>"
    ) in page
    assert '<meta name="description" content="See our paper and more.">' in page
    link = f'<a href="https://github.com/TorchJD/torchjd" {REL}>TorchJD</a>'
    assert f'<div class="bio"><p>Works on {link}.</p></div>' in page
    speaker_page = client.get(f"/{DEMO_SLUG}/speakers/{speaker.key}/").content.decode()
    assert f'<div class="bio"><p>Works on {link}.</p></div>' in speaker_page
