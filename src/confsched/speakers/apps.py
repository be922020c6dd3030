from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SpeakersConfig(AppConfig):
    """Speakers keep their own profile and sessions: their personal sign-in links, photos,
    slides and notes to the organizers."""

    name = "confsched.speakers"
    label = "speakers"
    verbose_name = _("Speakers")
