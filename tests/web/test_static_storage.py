"""collectstatic writes hashed, gzipped copies and no brotli ones (see StaticStorage)."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management import call_command


def test_collectstatic_writes_gzip_and_no_brotli(settings, tmp_path: Path) -> None:
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "confsched.web.site.static_storage.StaticStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    css = {p.name for p in (tmp_path / "confsched").glob("app.*css*")}
    hashed = [name for name in css if re.fullmatch(r"app\.[0-9a-f]{12}\.css", name)]
    assert len(hashed) == 1
    assert css == {"app.css", "app.css.gz", hashed[0], hashed[0] + ".gz"}
    assert list(tmp_path.rglob("*.br")) == []
    assert (tmp_path / "staticfiles.json").exists()
