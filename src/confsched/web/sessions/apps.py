from django.apps import AppConfig


class WebSessionsConfig(AppConfig):
    name = "confsched.web.sessions"
    label = "web_sessions"
    verbose_name = "Session and speaker pages"
