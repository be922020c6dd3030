from django.apps import AppConfig


class WebSpeakersConfig(AppConfig):
    """The speakers' own pages: their link's door, their page across events, their profile
    and photo, their sessions' slides, links and notes."""

    name = "confsched.web.speakers"
    label = "web_speakers"
    verbose_name = "Speakers' pages"
