"""Upgrading keeps everyone's access: each active `is_staff` account that is not a superuser
becomes owner of every event that exists now. Afterwards `is_staff` alone opens no event;
rights come from roles (docs/teams.md). Going back removes only the roles this step gave."""

from django.conf import settings
from django.db import migrations

NOTE = "staff member before teams: owner (upgrade)"


def staff_become_owners(apps, schema_editor):  # noqa: ANN001, ANN201
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Event = apps.get_model("programme", "Event")
    TeamMember = apps.get_model("programme", "TeamMember")
    TeamChange = apps.get_model("programme", "TeamChange")
    staff = list(User.objects.filter(is_staff=True, is_superuser=False, is_active=True))
    for event in Event.objects.all():
        for user in staff:
            _, made = TeamMember.objects.get_or_create(
                event=event, user=user, defaults={"role": "owner"}
            )
            if made:
                TeamChange.objects.create(
                    event=event, by="upgrade", description=f"{user.username}: {NOTE}"
                )


def undo(apps, schema_editor):  # noqa: ANN001, ANN201
    TeamChange = apps.get_model("programme", "TeamChange")
    TeamMember = apps.get_model("programme", "TeamMember")
    for change in TeamChange.objects.filter(by="upgrade", description__endswith=NOTE):
        username = change.description.removesuffix(f": {NOTE}")
        TeamMember.objects.filter(event=change.event, user__username=username).delete()
        change.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("programme", "0011_teams"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(staff_become_owners, undo)]
