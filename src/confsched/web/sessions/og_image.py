"""Link-preview cards (og:image): a PNG per event and per session, drawn with Pillow.

Like the cards pretalx draws: on a plain background, the event's name, the session's title
(wrapped, smaller when long), its speakers, and its time and room. 1200×630 is the size Open
Graph consumers (Facebook, LinkedIn, Mastodon, Slack, X's summary_large_image) crop least.

The font is DejaVu Sans where the system has it (found by fc-match, then at Debian's path),
else Pillow's own default font; DejaVu has no CJK glyphs, so such titles show boxes. Pure:
the same text gives the same bytes, so a card is drawn once per schedule version and kept.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess  # noqa: S404 - fc-match, a fixed command, to find a font file
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
MARGIN = 72
BACKGROUND = (246, 247, 251)
ACCENT = (37, 99, 235)
INK = (17, 24, 39)
MUTED = (75, 85, 99)
ALT_LIMIT = 420  # og:image:alt is read aloud: the card's text, not a page

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
_DEBIAN = Path("/usr/share/fonts/truetype/dejavu")


@dataclass(frozen=True)
class Card:
    """A card's text, line by line as drawn."""

    kicker: str  # the event's name, above
    title: str
    people: str = ""
    footer: str = ""  # when and where

    @property
    def alt(self) -> str:
        """The card's text for og:image:alt."""
        text = ". ".join(
            part for part in (self.title, self.people, self.footer, self.kicker) if part
        )
        return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


@functools.cache
def font_file(*, bold: bool) -> str:
    """DejaVu Sans (Bold) as fc-match finds it, else at Debian's path; "" without either."""
    name = "DejaVu Sans:bold" if bold else "DejaVu Sans"
    command = shutil.which("fc-match")
    if command:
        try:
            found = subprocess.run(  # noqa: S603 - fixed arguments, no shell
                [command, "--format=%{file}", name],
                capture_output=True, text=True, timeout=5, check=False,
            ).stdout.strip()  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            found = ""
        # fc-match answers its nearest font for any name: take only DejaVu's.
        if found and "DejaVuSans" in Path(found).name and Path(found).is_file():
            return found
    path = _DEBIAN / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return str(path) if path.is_file() else ""


@functools.cache
def load_font(size: int, *, bold: bool = False) -> Font:
    path = font_file(bold=bold)
    if path:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size)
    except (TypeError, ImportError):  # Pillow without FreeType: a small bitmap font
        return ImageFont.load_default()


def _width(text: str, font: Font) -> float:
    return font.getlength(text)


def wrapped(text: str, font: Font, *, width: int, max_lines: int) -> list[str]:
    """`text` in lines no wider than `width`, at most `max_lines`, the last ending in "…" when
    text was left over. A word wider than a line is cut."""
    lines: list[str] = []
    words = text.split()
    current = ""
    while words:
        word = words.pop(0)
        attempt = f"{current} {word}" if current else word
        if _width(attempt, font) <= width:
            current = attempt
            continue
        if not current:  # one word wider than the line: cut it
            cut = len(word)
            while cut > 1 and _width(word[:cut], font) > width:
                cut -= 1
            current, rest = word[:cut], word[cut:]
            words.insert(0, rest)
        else:
            words.insert(0, word)
        lines.append(current)
        current = ""
        if len(lines) == max_lines:
            break
    if current and len(lines) < max_lines:
        lines.append(current)
    if words:
        last = lines[-1]
        while last and _width(last + "…", font) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    return lines


def _title_lines(title: str, *, width: int) -> tuple[Font, list[str]]:
    # The largest size at which the title fits in four lines; the smallest cuts it.
    for size in (64, 56, 48, 42):
        font = load_font(size, bold=True)
        lines = wrapped(title, font, width=width, max_lines=4)
        if not lines[-1].endswith("…") or size == 42:
            return font, lines
    raise AssertionError("unreachable")  # pragma: no cover


def render_card(card: Card) -> bytes:
    """The card as a 1200×630 PNG."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 16, HEIGHT), fill=ACCENT)
    width = WIDTH - 2 * MARGIN
    y = MARGIN
    kicker = load_font(32, bold=True)
    for line in wrapped(card.kicker, kicker, width=width, max_lines=1):
        draw.text((MARGIN, y), line, font=kicker, fill=ACCENT)
        y += 48
    y += 24
    title_font, lines = _title_lines(card.title, width=width)
    step = int(getattr(title_font, "size", 40) * 1.2)
    for line in lines:
        draw.text((MARGIN, y), line, font=title_font, fill=INK)
        y += step
    y += 20
    people = load_font(34)
    # As many lines of speakers (up to two) as fit above the footer.
    room = (HEIGHT - MARGIN - 36 - 12 - y) // 46
    if card.people and room > 0:
        for line in wrapped(card.people, people, width=width, max_lines=min(2, room)):
            draw.text((MARGIN, y), line, font=people, fill=INK)
            y += 46
    if card.footer:
        footer = load_font(30)
        (line,) = wrapped(card.footer, footer, width=width, max_lines=1)
        draw.text((MARGIN, HEIGHT - MARGIN - 36), line, font=footer, fill=MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


class CardImage:
    """A drawn card as kept with the pages (`stencils.kept` counts its size)."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.size = len(body)
