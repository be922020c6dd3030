import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("programme", "0007_event_sync"),
    ]

    operations = [
        migrations.CreateModel(
            name="SessionEmbedding",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("model_name", models.CharField(max_length=100)),
                ("text_digest", models.CharField(max_length=64)),
                ("vector", models.BinaryField()),
                (
                    "session",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="embedding",
                        to="programme.session",
                    ),
                ),
            ],
        ),
    ]
