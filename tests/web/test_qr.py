"""The check-in code's QR code: a full QR code of exactly the code, titled, on white."""

from __future__ import annotations

import re

import pytest
import segno

from confsched.web.site.qr import code_qr_svg

CODE = "7KQ2MXR9VB"


def _modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules the SVG draws, read back from its path of horizontal strokes."""
    path = re.search(r'class="qrline" stroke="#000" d="([^"]+)"', svg)
    assert path is not None
    x = y = 0.0
    dark = set()
    for command, numbers in re.findall(r"([Mmh])([-\d. ]+)", path.group(1)):
        values = [float(n) for n in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            dark |= {(int(x) + i, int(y - 0.5)) for i in range(int(values[0]))}
            x += values[0]
    return dark


def test_code_qr_svg_draws_the_code_as_a_full_qr_code() -> None:
    svg = str(code_qr_svg(CODE))
    assert svg.startswith(
        '<svg role="img" width="116" height="116" viewBox="0 0 116 116" class="qr">'
        "<title>Check-in code 7KQ2MXR9VB</title>"
    )
    assert '<path fill="#fff" d="M0 0h29v29h-29z"/>' in svg  # white behind, quiet zone too
    expected = segno.make_qr(CODE, error="m")
    assert (expected.version, expected.is_micro) == (1, False)
    quiet = 4
    assert _modules(svg) == {
        (column + quiet, row + quiet)
        for row, line in enumerate(expected.matrix)
        for column, value in enumerate(line)
        if value
    }


def test_code_qr_svg_escapes_and_trims() -> None:
    svg = str(code_qr_svg("  A<B&C  "))
    assert "<title>Check-in code A&lt;B&amp;C</title>" in svg
    assert "<script" not in svg and "style=" not in svg


@pytest.mark.parametrize("code", ["", "   "])
def test_code_qr_svg_refuses_an_empty_code(code: str) -> None:
    with pytest.raises(
        ValueError, match="A QR code needs a check-in code: the code given is empty."
    ):
        code_qr_svg(code)
