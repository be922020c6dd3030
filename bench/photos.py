"""A speaker's photo upload: how long process_photo() takes and how much memory it needs.

Usage: python bench/photos.py [--rounds 20]

Makes three uploads with Pillow (smooth gradients under a little noise, like a photo, not flat
colour nor pure noise): a 12-megapixel camera JPEG (4000 × 3000, quality 92, EXIF with GPS and
orientation 6), a 2-megapixel PNG (1600 × 1250) and a 4000 × 3000 WebP (quality 90). Times
--rounds calls of process_photo() on each (after one untimed call) and prints the median and
95th percentile in milliseconds, then the process's peak RSS (resource.getrusage: the most it
ever held, so the figure after all three).
"""

from __future__ import annotations

import argparse
import io
import resource
import statistics
import time

from django.conf import settings

settings.configure(USE_I18N=False)  # gettext only: no database, no apps

from PIL import Image  # noqa: E402

from confsched.speakers.photos import process_photo  # noqa: E402


def picture(size: tuple[int, int]) -> Image.Image:
    width, height = size
    red = Image.linear_gradient("L").resize(size)
    green = Image.linear_gradient("L").rotate(90).resize(size)
    blue = Image.radial_gradient("L").resize(size)
    noise = Image.effect_noise(size, 24).convert("L")
    smooth = Image.merge("RGB", (red, green, blue))
    return Image.blend(smooth, Image.merge("RGB", (noise, noise, noise)), 0.15)


def uploads() -> list[tuple[str, bytes]]:
    exif = Image.Exif()
    exif[0x010F], exif[0x0110], exif[0x0112] = "PhoneMaker", "Phone 12", 6
    exif.get_ifd(0x8825).update({1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 3.0)})
    made = []
    for name, size, format, options in [
        ("12 MP camera JPEG", (4000, 3000), "JPEG", {"quality": 92, "exif": exif}),
        ("2 MP PNG", (1600, 1250), "PNG", {}),
        ("4000 × 3000 WebP", (4000, 3000), "WEBP", {"quality": 90}),
    ]:
        buffer = io.BytesIO()
        picture(size).save(buffer, format, **options)
        made.append((name, buffer.getvalue()))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds
    print(f"{'upload':<20} {'bytes':>11} {'median ms':>10} {'p95 ms':>8}  sizes")
    for name, data in uploads():
        photo = process_photo(data, filename="bench")  # warm: imports, codec set-up
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            process_photo(data, filename="bench")
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(
            f"{name:<20} {len(data):>11,} {statistics.median(times):>10.0f} {p95:>8.0f}  "
            f"{photo.sizes} + original {photo.original.width} × {photo.original.height}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"peak RSS of the process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
