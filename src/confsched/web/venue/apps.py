from django.apps import AppConfig


class WebVenueConfig(AppConfig):
    name = "confsched.web.venue"
    label = "web_venue"
    verbose_name = "At the venue: now board, offline copy, print, embed"
