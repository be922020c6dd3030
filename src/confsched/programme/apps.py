from django.apps import AppConfig


class ProgrammeConfig(AppConfig):
    name = "confsched.programme"
    label = "programme"
    verbose_name = "Programme"
