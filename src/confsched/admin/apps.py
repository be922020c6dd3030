from importlib import import_module

from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class AdminScreensConfig(AppConfig):
    """Registers every domain's admin screens (this package's modules) and holds their
    templates (templates/admin/<app>/<model>/...)."""

    default = True
    name = "confsched.admin"
    label = "confsched_admin"  # "admin" is Django's admin's label
    verbose_name = _("Admin screens")

    def ready(self) -> None:
        for module in ("programme", "teams"):
            import_module(f"{self.name}.{module}")


class TeamAdminConfig(admin_apps.AdminConfig):
    """Django's admin with the site that lets event teams in (admin/site.py); installed in
    place of django.contrib.admin (settings.INSTALLED_APPS)."""

    default = False
    default_site = "confsched.admin.site.TeamAdminSite"
