"""confsched serve: the production server (gunicorn, static files through WhiteNoise)."""

from __future__ import annotations

import os
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = (
        "Serve confsched with gunicorn; static files are collected first and served by WhiteNoise."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("CONFSCHED_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument(
            "--workers",
            type=int,
            default=int(os.environ.get("WEB_CONCURRENCY", str(min(4, (os.cpu_count() or 1) * 2)))),
        )
        parser.add_argument("--no-collectstatic", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        from gunicorn.app.base import BaseApplication

        if not options["no_collectstatic"]:
            call_command("collectstatic", interactive=False, verbosity=0)
        # Imported only now: WhiteNoise indexes the collected files when the app is built.
        from confsched.wsgi import application

        bind = f"{options['host']}:{options['port']}"
        if ":" in options["host"]:
            bind = f"[{options['host']}]:{options['port']}"
        config = {
            "bind": bind,
            "workers": options["workers"],
            "threads": 4,
            "accesslog": "-",
            "timeout": 30,
            "graceful_timeout": 10,
        }

        class Server(BaseApplication):
            def load_config(self) -> None:
                for key, value in config.items():
                    self.cfg.set(key, value)

            def load(self):  # noqa: ANN202 - gunicorn's hook returns the WSGI callable
                return application

        self.stdout.write(f"Serving confsched at http://{bind}/ (Ctrl-C stops)")
        self.stdout.flush()
        Server().run()
