"""Search takes over SessionEmbedding from programme/ (its migration 0021): the table
programme_sessionembedding keeps its name and rows, and queued embedding tasks their module."""

import django.db.models.deletion
from django.db import migrations, models



def move_content_types(app_label, models):
    """The admin's log and any permissions name a model by its content type: the rows made
    while the models were programme's now name this app (none exist yet on a new database)."""

    def forward(apps, schema_editor):
        content_type = apps.get_model("contenttypes", "ContentType")
        for model in models:
            if not content_type.objects.filter(app_label=app_label, model=model).exists():
                content_type.objects.filter(app_label="programme", model=model).update(
                    app_label=app_label
                )

    def backward(apps, schema_editor):
        content_type = apps.get_model("contenttypes", "ContentType")
        for model in models:
            if not content_type.objects.filter(app_label="programme", model=model).exists():
                content_type.objects.filter(app_label=app_label, model=model).update(
                    app_label="programme"
                )

    return forward, backward


OLD_TASK = "confsched.programme.semantic_worker.embed_event"
NEW_TASK = "confsched.search.worker.embed_event"


def rename_queued_tasks(apps, schema_editor):
    """The queue stores each task by its dotted path: an "embed this event" task queued before
    the move names the old module, which is gone; it names the new one, so it still runs."""
    task_result = apps.get_model("django_tasks_database", "DBTaskResult")
    task_result.objects.filter(task_path=OLD_TASK).update(task_path=NEW_TASK)


def restore_queued_tasks(apps, schema_editor):
    task_result = apps.get_model("django_tasks_database", "DBTaskResult")
    task_result.objects.filter(task_path=NEW_TASK).update(task_path=OLD_TASK)


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('programme', '0021_teams_and_search_move_out'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('django_tasks_database', '0021_conditional_partial_index_ordering'),
    ]

    operations = [
        # The tables were made by programme's migrations (0008, 0011): only the state moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='SessionEmbedding',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('model_name', models.CharField(max_length=100, verbose_name='model name')),
                        ('text_digest', models.CharField(max_length=64, verbose_name='text digest')),
                        ('vector', models.BinaryField(verbose_name='vector')),
                        ('session', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='embedding', to='programme.session', verbose_name='session')),
                    ],
                    options={
                        'verbose_name': 'session embedding',
                        'verbose_name_plural': 'session embeddings',
                        'db_table': 'programme_sessionembedding',
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(*move_content_types("search", ["sessionembedding"])),
        migrations.RunPython(rename_queued_tasks, restore_queued_tasks),
    ]
