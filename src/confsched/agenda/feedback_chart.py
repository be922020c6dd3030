"""A session's ratings as a small server-side SVG bar chart: one bar per rating, 5 to 1.

Pure, and drawn the way programme/insight.py draws its charts: presentation attributes only
(the CSP forbids style attributes), a <title> for the chart and one per bar, so that screen
readers and tooltips say each figure; the numbers are also written beside the bars, and pages
show them in a table too.
"""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from confsched.agenda.feedback import Summary

WIDTH = 320
LABEL_WIDTH = 34  # "5 ★"
FIGURE_SPACE = 70  # "12 (60 %)" after the longest bar
ROW_HEIGHT = 22
BAR_HEIGHT = 14
COLOUR = "#2f5d9e"
TEXT = "#1d1d1f"


def _bar_title(rating: int, count: int) -> str:
    """ "4 stars: 1 rating", in the page's language."""
    stars = ngettext("%(rating)s star", "%(rating)s stars", rating) % {"rating": rating}
    ratings = ngettext("%(count)s rating", "%(count)s ratings", count) % {"count": count}
    return gettext("%(stars)s: %(ratings)s") % {"stars": stars, "ratings": ratings}


def _percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def distribution_svg(summary: Summary, *, title: str) -> SafeString:
    """The five ratings' counts as horizontal bars, scaled to the most frequent rating."""
    top = max(summary.distribution)
    space = WIDTH - LABEL_WIDTH - FIGURE_SPACE
    rows = []
    for index, (rating, count) in enumerate(summary.by_rating):
        y = 2 + index * ROW_HEIGHT
        length = round(space * count / top) if top else 0
        figure = f"{count} ({_percent(count, summary.count)} %)"
        rows.append(
            (y + 15, f"{rating} ★", LABEL_WIDTH, y + 4, length, BAR_HEIGHT, COLOUR,
             _bar_title(rating, count),
             LABEL_WIDTH + length + 6, figure)
        )  # fmt: skip
    body = format_html_join(
        "",
        '<text x="0" y="{0}" font-size="13" fill="' + TEXT + '">{1}</text>'
        '<rect class="bar" x="{2}" y="{3}" width="{4}" height="{5}" fill="{6}">'
        "<title>{7}</title></rect>"
        '<text x="{8}" y="{0}" font-size="13" fill="' + TEXT + '">{9}</text>',
        rows,
    )
    return format_html(
        '<svg class="chart feedback-chart" role="img" viewBox="0 0 {} {}" width="100%" '
        'preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">'
        "<title>{}</title>{}</svg>",
        WIDTH,
        ROW_HEIGHT * 5 + 4,
        title,
        body,
    )
