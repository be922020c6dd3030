from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProgrammeConfig(AppConfig):
    name = "confsched.programme"
    label = "programme"
    verbose_name = _("Programme")
