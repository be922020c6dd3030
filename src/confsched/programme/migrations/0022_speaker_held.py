"""What speakers set themselves (issue 31): a speaker's homepage and links, the fields a
speaker holds, and who added a session link. Existing rows hold nothing: every field and link
came from the organizer's file, which the next import may change as before."""

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('programme', '0021_teams_and_search_move_out'),
    ]

    operations = [
        migrations.AddField(
            model_name='sessionlink',
            name='held_by',
            field=models.CharField(blank=True, max_length=150, verbose_name='held by'),
        ),
        migrations.AddField(
            model_name='speaker',
            name='held',
            field=models.JSONField(blank=True, default=dict, verbose_name='held by the speaker'),
        ),
        migrations.AddField(
            model_name='speaker',
            name='homepage',
            field=models.URLField(blank=True, max_length=500, validators=[django.core.validators.URLValidator(schemes=['http', 'https'])], verbose_name='homepage'),
        ),
        migrations.AddField(
            model_name='speaker',
            name='links',
            field=models.JSONField(blank=True, default=list, verbose_name='links'),
        ),
    ]
