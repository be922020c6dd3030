from django.apps import AppConfig


class WebScheduleConfig(AppConfig):
    name = "confsched.web.schedule"
    label = "web_schedule"
    verbose_name = "The schedule"
