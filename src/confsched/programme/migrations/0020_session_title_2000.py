# A title is kept whole up to 2,000 characters (was 500): issue 29, item 15.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('programme', '0019_event_embedded_at'),
    ]

    operations = [
        migrations.AlterField(
            model_name='session',
            name='title',
            field=models.CharField(max_length=2000, verbose_name='title'),
        ),
    ]
