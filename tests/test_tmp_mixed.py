from typing import Any
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from confsched.programme.services import add_member
from tests.test_rights import events, OWN, OTHER  # noqa: F401

def test_mixed(events: Any) -> None:
    out = {}
    for a in ("owner", "editor", "viewer", "checkin"):
        for b in ("owner", "editor", "viewer", "checkin"):
            if a == b: continue
            user = User.objects.create_user(f"m{a}{b}", f"m{a}{b}@example.org", "pw")
            add_member(events[OWN], user, a, by="command line")
            add_member(events[OTHER], user, b, by="command line")
            client = Client()
            client.force_login(user)
            for model in admin.site._registry:
                if model._meta.app_label != "programme": continue
                url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
                for q in ("", "?o=1", "?event__id__exact=1"):
                    r = client.get(url+q)
                    if r.status_code not in (200, 302): out[(a, b, url+q)] = r.status_code
            r = client.get("/admin/")
            out[(a,b,"/admin/")] = r.status_code
    print(out)
    assert 0
