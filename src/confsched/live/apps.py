from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "confsched.live"
    label = "live"
    verbose_name = "Live at the venue: rooms that are full, announcements"
