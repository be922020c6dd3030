from decimal import Decimal

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("programme", "0005_event_walking_minutes"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="attendees_per_star",
            field=models.DecimalField(
                decimal_places=1,
                default=Decimal("1.0"),
                help_text="Attendees expected per star, to guess which rooms overflow",
                max_digits=4,
                validators=[django.core.validators.MinValueValidator(Decimal("0.1"))],
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="show_likely_full",
            field=models.BooleanField(
                default=False,
                help_text="Say 'likely full' on the pages of sessions whose stars near the seats",
            ),
        ),
        migrations.AddField(
            model_name="room",
            name="capacity",
            field=models.PositiveIntegerField(blank=True, help_text="Seats, if known", null=True),
        ),
    ]
