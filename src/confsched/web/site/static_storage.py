"""Static files as WhiteNoise serves them: hashed names, compressed once at collectstatic."""

from __future__ import annotations

from typing import Any

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage with gzip only. Brotli comes installed with WeasyPrint (through
    fonttools), and WhiteNoise compresses every file at brotli's slowest level when it finds
    it: 25 s of CPU at each `confsched serve` start, for a few kilobytes on the admin's scripts.
    """

    def create_compressor(self, **kwargs: Any) -> Compressor:
        return super().create_compressor(use_brotli=False, **kwargs)
