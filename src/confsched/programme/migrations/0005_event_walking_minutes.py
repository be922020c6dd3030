from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("programme", "0004_event_embed_origins"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="walking_minutes",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="Minutes to walk between two rooms, for the agenda planner"
            ),
        ),
    ]
