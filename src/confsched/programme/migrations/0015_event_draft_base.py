from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("programme", "0014_drafts_and_version_snapshots"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="draft_base",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
    ]
