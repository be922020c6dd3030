"""Every response carries a strict Content-Security-Policy, which our templates make possible."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client

from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "confsched" / "web" / "templates"
POLICY = {
    "default-src": "'self'",
    "img-src": "'self' https:",  # speakers' pictures on the sources' sites
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def _policy(response: HttpResponse) -> dict[str, str]:
    """Directive -> sources; django-csp writes the directives in no fixed order."""
    parts = response["Content-Security-Policy"].split("; ")
    return dict(part.split(" ", 1) for part in parts)


@pytest.mark.parametrize(
    ("path", "status"),
    [
        (BASE, 200),
        (BASE + "grid/", 200),
        (BASE + "?tz=Europe", 400),
        (BASE + "schedule.ics", 200),
        (BASE + "changes.atom", 200),
        (BASE + "nothing-here/", 404),
        ("/accounts/signup/", 200),
        ("/accounts/login/", 200),
        ("/admin/login/", 200),
        ("/api/v1/events", 200),
        ("/static/confsched/app.js", 200),
    ],
)
def test_every_response_carries_the_policy(
    client: Client, demo_event, path: str, status: int
) -> None:
    response = client.get(path)
    assert (response.status_code, _policy(response)) == (status, POLICY)


def test_the_admin_carries_the_policy(client: Client, demo_event) -> None:
    client.force_login(User.objects.create_superuser("root", "root@example.org", "pw-0123456789"))
    for path in ("/admin/", "/admin/programme/session/", "/admin/programme/event/add/"):
        response = client.get(path)
        assert (response.status_code, _policy(response)) == (200, POLICY), path


def test_the_api_docs_may_show_data_images_and_nothing_else_more(client: Client) -> None:
    response = client.get("/api/v1/docs")
    assert (response.status_code, _policy(response)) == (
        200,
        {**POLICY, "img-src": "'self' https: data:"},
    )


def test_the_api_docs_load_only_their_own_files(client: Client) -> None:
    response = client.get("/api/v1/docs")
    html = response.content.decode()
    assert re.findall(r'<script src="([^"]+)"', html) == [
        "/static/ninja/swagger-ui-bundle.js",
        "/static/ninja/swagger-ui-init.js",
    ]
    assert re.findall(r'<link[^>]* href="([^"]+)"', html) == [
        "/static/ninja/swagger-ui.css",
        "/static/confsched/api-docs.css",
        "/static/confsched/icon.svg",
    ]


def test_no_template_has_inline_script_style_or_handlers() -> None:
    found = []
    for template in sorted(TEMPLATES.rglob("*.html")):
        text = template.read_text()
        name = str(template.relative_to(TEMPLATES))
        for tag in re.findall(r"<script\b[^>]*>", text):
            # Data blocks (JSON-LD, Swagger UI's settings) are not run, so CSP has no say.
            if " src=" not in tag and not re.search(r'type="application/(ld\+)?json"', tag):
                found.append((name, tag))
        found += [(name, m) for m in re.findall(r"<style\b|\sstyle=|\son[a-z]+=", text)]
        found += [(name, m) for m in re.findall(r"javascript:", text)]
    assert found == []
