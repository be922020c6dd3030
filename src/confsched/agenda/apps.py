from django.apps import AppConfig


class AgendaConfig(AppConfig):
    name = "confsched.agenda"
    label = "agenda"
    verbose_name = "Attendee agendas"
