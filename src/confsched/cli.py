"""The `confsched` command: every Django management command, plus import and serve."""

from __future__ import annotations

import os
import sys

# Words that only print text: the command list, a command's usage, the version.
_PRINT_ONLY = frozenset({"help", "--help", "-h", "version", "--version"})

# Lets the settings load when SECRET_KEY is unset so that help lists our own commands too (Django
# lists only its core commands when the settings fail). Only a process that prints text and
# exits ever holds it: no command runs, so nothing is signed and no request is served with it.
_HELP_ONLY_KEY = "confsched-help-only-placeholder-never-a-secret"  # noqa: S105 - not a secret


def main(argv: list[str] | None = None) -> None:
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    args = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    if (not args or args[0] in _PRINT_ONLY) and not os.environ.get("SECRET_KEY"):
        os.environ["SECRET_KEY"] = _HELP_ONLY_KEY
    try:
        execute_from_command_line(["confsched", *args])
    except ImproperlyConfigured as exc:
        # A setting to fix, not a bug: the reason in one line, without a traceback.
        sys.stderr.write(f"confsched: {' '.join(str(exc).split())}\n")
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
