from django.db import migrations, models


class Migration(migrations.Migration):
    # Depends on 0005, not 0006: both were written at once; the lead merges the two.
    dependencies = [
        ("programme", "0006_room_capacity_likely_full"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="sync_url",
            field=models.URLField(
                blank=True,
                help_text="Re-imported by `confsched sync` (cron or a systemd timer); empty: never",
                max_length=500,
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="sync_etag",
            field=models.CharField(blank=True, editable=False, max_length=200),
        ),
        migrations.AddField(
            model_name="event",
            name="sync_last_modified",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
    ]
