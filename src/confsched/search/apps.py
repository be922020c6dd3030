from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SearchConfig(AppConfig):
    """Finding sessions: by their words, and by meaning (vectors made by the worker)."""

    name = "confsched.search"
    label = "search"
    verbose_name = _("Search")
