from django.db import migrations, models

import confsched.programme.models


class Migration(migrations.Migration):
    """The languages an event's pages are offered in; English only, as before, by default."""

    dependencies = [
        ("programme", "0012_staff_become_owners"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="default_language",
            field=models.CharField(
                default="en",
                help_text=(
                    "The pages' language for visitors whose browser asks for none offered, e.g. en"
                ),
                max_length=10,
                validators=[confsched.programme.models.validate_language_codes],
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="languages",
            field=models.CharField(
                blank=True,
                default="",
                help_text="Languages attendees may choose, e.g. en, fr, de; empty: the default only",
                max_length=100,
                validators=[confsched.programme.models.validate_language_codes],
            ),
        ),
    ]
