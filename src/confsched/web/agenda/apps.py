from django.apps import AppConfig


class WebAgendaConfig(AppConfig):
    name = "confsched.web.agenda"
    label = "web_agenda"
    verbose_name = "Attendees' agendas"
