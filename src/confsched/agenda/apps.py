from django.apps import AppConfig


class AgendaConfig(AppConfig):
    name = "confsched.agenda"
    label = "agenda"
    verbose_name = "Attendee agendas"

    def ready(self) -> None:
        from confsched.agenda.alerts import push_recorded_version
        from confsched.agenda.reservations import promote_after_import
        from confsched.agenda.seat_changes import check_and_record
        from confsched.programme.signals import seats_changed, seats_changing, version_recorded

        # An import may not give fewer seats than people hold (unless they keep theirs), and
        # each change of seats is written to the team's log.
        seats_changing.connect(check_and_record, dispatch_uid="agenda-check-seats")
        # An import that gives sessions more seats moves people up from their waitlists.
        seats_changed.connect(promote_after_import, dispatch_uid="agenda-promote-after-import")
        # A new version's news goes to the devices of those who starred its sessions at once.
        version_recorded.connect(push_recorded_version, dispatch_uid="agenda-push-version")
