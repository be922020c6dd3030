"""Web Push (RFC 8030, message encryption RFC 8291, VAPID RFC 8292): notifications on the
phones and browsers that people opted in, sent by the task queue."""

from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "confsched.push"
    label = "push"
    verbose_name = "Web Push notifications"

    def ready(self) -> None:
        # Logging out on a device turns off the notifications turned on in that session. The
        # agenda (a layer above) queues its notifications itself, through push.tasks.
        from django.contrib.auth.signals import user_logged_out

        from confsched.push.services import forget_at_logout

        user_logged_out.connect(forget_at_logout, dispatch_uid="push-logout")
