from django.apps import AppConfig


class AgendaConfig(AppConfig):
    name = "confsched.agenda"
    label = "agenda"
    verbose_name = "Attendee agendas"

    def ready(self) -> None:
        from confsched.agenda.reservations import promote_after_import
        from confsched.programme.signals import seats_changed

        # An import that gives sessions more seats moves people up from their waitlists.
        seats_changed.connect(promote_after_import, dispatch_uid="agenda-promote-after-import")
