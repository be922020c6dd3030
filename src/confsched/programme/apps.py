from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class ProgrammeConfig(AppConfig):
    name = "confsched.programme"
    label = "programme"
    verbose_name = _("Programme")


class TeamAdminConfig(admin_apps.AdminConfig):
    """Django's admin with the site that lets event teams in (programme/admin_site.py);
    installed in place of django.contrib.admin (settings.INSTALLED_APPS)."""

    default = False  # the programme's own config stays this module's default
    default_site = "confsched.programme.admin_site.TeamAdminSite"
