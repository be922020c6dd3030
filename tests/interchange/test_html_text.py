"""html_to_text: the one HTML-to-plain-text conversion the programme formats share."""

from __future__ import annotations

from confsched.interchange.html_text import html_to_text


def test_paragraphs_and_headings_become_blank_lines() -> None:
    assert html_to_text("<h2>Title</h2>\n<p>One,\n   wrapped.</p>\n\n\n<div>Two</div>") == (
        "Title\n\nOne, wrapped.\n\nTwo"
    )
    # An unclosed paragraph is still a paragraph.
    assert html_to_text("<p>Early<p>Late") == "Early\n\nLate"


def test_list_items_become_dash_lines() -> None:
    assert html_to_text("<p>Topics:</p><ul>\n<li>one</li>\n<li>two</li>\n</ul><p>End</p>") == (
        "Topics:\n\n- one\n- two\n\nEnd"
    )
    # A nested list is a list of its own: no indentation, a blank line before it.
    assert html_to_text("<ol><li>a<ul><li>b</li></ul></li></ol>") == "- a\n\n- b"


def test_line_breaks_definitions_and_tables() -> None:
    assert html_to_text("<p>One<br>two<br/>three</p>") == "One\ntwo\nthree"
    assert html_to_text("<dl><dt>Term</dt><dd>Meaning</dd></dl>") == "Term\nMeaning"
    assert html_to_text("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr>") == (
        "A B\n1 2"
    )


def test_link_with_text_keeps_its_url() -> None:
    assert html_to_text('<p>See <a href="https://x.example/a">the site</a>.</p>') == (
        "See the site (https://x.example/a)."
    )
    assert html_to_text('<p>see<a href="https://x.example"> the site </a>now</p>') == (
        "see the site (https://x.example) now"
    )
    assert html_to_text('<p><a href="mailto:me@x.example">write</a></p>') == (
        "write (mailto:me@x.example)"
    )


def test_link_whose_text_is_the_address_is_written_once() -> None:
    assert html_to_text('<p><a href="https://a.example/">https://a.example/</a></p>') == (
        "https://a.example/"
    )
    assert html_to_text('<p><a href="https://a.example/x/">a.example/x</a></p>') == (
        "https://a.example/x/"
    )
    assert html_to_text('<p><a href="https://a.example/">https://a.example</a></p>') == (
        "https://a.example/"
    )
    assert html_to_text('<p><a href="mailto:me@x.example">me@x.example</a></p>') == "me@x.example"
    assert html_to_text('<p>At <a href="https://a.example/"></a>.</p>') == "At https://a.example/."


def test_relative_links_are_made_absolute_against_base_url() -> None:
    markup = '<p><a href="/x">link</a> and <a href="y.pdf">slides</a></p>'
    assert html_to_text(markup, base_url="https://base.example/event/1") == (
        "link (https://base.example/x) and slides (https://base.example/event/y.pdf)"
    )
    # Without an absolute base the link stays as written.
    assert html_to_text(markup) == "link (/x) and slides (y.pdf)"
    assert html_to_text(markup, base_url="/event/1") == "link (/x) and slides (y.pdf)"


def test_anchor_and_script_links_leave_their_text() -> None:
    assert html_to_text('<p><a href="#top">top</a> <a href="javascript:go()">go</a></p>') == (
        "top go"
    )
    assert html_to_text("<p><a>no href</a></p>") == "no href"


def test_entities_are_unescaped() -> None:
    assert html_to_text("<p>Tom &amp; Jerry&#39;s &lt;show&gt; &eacute;t&eacute;</p>") == (
        "Tom & Jerry's <show> été"
    )


def test_script_style_head_and_title_are_dropped() -> None:
    assert html_to_text(
        "<head><title>Page</title><style>p { color: red }</style></head>"
        "<p>Body</p><script>alert(1)</script><p>End</p>"
    ) == ("Body\n\nEnd")


def test_whitespace_collapses_across_inline_tags() -> None:
    assert html_to_text("<p>a <b> b</b>\n  <em>c</em></p>") == "a b c"


def test_pre_keeps_its_line_breaks() -> None:
    assert html_to_text("<p>Run:</p><pre>make  all\n  make test</pre><p>Done</p>") == (
        "Run:\n\nmake  all\nmake test\n\nDone"
    )


def test_inline_only_markup_keeps_its_line_breaks() -> None:
    assert html_to_text("# Title\n\n* a <em>b</em>\n  * nested\n* c") == (
        "# Title\n\n* a b\n  * nested\n* c"
    )
    assert html_to_text('a\nb <a href="https://c.example">c.example</a>\n\nd') == (
        "a\nb https://c.example\n\nd"
    )


def test_br_alone_keeps_the_texts_line_breaks_and_counts_once_at_a_line_end() -> None:
    assert html_to_text("one<br />\ntwo<br />\n<br />\nthree") == "one\ntwo\n\nthree"
    assert html_to_text("one<br>two\nthree") == "one\ntwo\nthree"
    # A stray closing </br> is no break; the blank line after it is the paragraph.
    assert html_to_text("First.</br>\n\nSecond <b>bold</b>.") == "First.\n\nSecond bold."


def test_thousands_of_unclosed_tags_are_text_read_in_one_pass() -> None:
    # The standard parser alone rescans from each "<" (10,000 of them took 7 s).
    assert html_to_text("<p>" + "<b " * 10_000 + "x</p>") == "<b " * 10_000 + "x"
    assert html_to_text("<p>a < b, 3<4 and <b>bold</b></p>") == "a < b, 3<4 and bold"


def test_a_character_reference_with_thousands_of_digits_is_a_replacement_character() -> None:
    assert (
        html_to_text("<p>a &#" + "9" * 5000 + "; b &#x" + "f" * 40 + " c</p>")
        == "a \ufffd b \ufffd c"
    )
    assert html_to_text("<p>&#233;&#x41;&#8364;</p>") == "éA€"
