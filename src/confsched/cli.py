"""The `confsched` command: every Django management command, plus import and serve."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(["confsched", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    main()
