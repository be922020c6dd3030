from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "confsched.web"
    label = "web"
    verbose_name = "Public pages"
