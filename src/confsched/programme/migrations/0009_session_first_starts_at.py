from django.db import migrations, models


def first_starts_from_now(apps, schema_editor):  # noqa: ANN001, ANN201 - migration hook
    """Sessions published before this field existed: their start now is the first one known."""
    Session = apps.get_model("programme", "Session")
    Session.objects.filter(starts_at__isnull=False, needs_review=False).update(
        first_starts_at=models.F("starts_at")
    )


class Migration(migrations.Migration):
    dependencies = [("programme", "0008_sessionembedding")]

    operations = [
        migrations.AddField(
            model_name="session",
            name="first_starts_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(first_starts_from_now, migrations.RunPython.noop),
    ]
