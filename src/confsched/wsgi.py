"""WSGI entry point (confsched serve uses it through gunicorn)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")

application = get_wsgi_application()
