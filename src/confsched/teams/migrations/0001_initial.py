"""Teams take over their models from programme/ (its migration 0021): the tables
programme_teammember, programme_invitation and programme_teamchange keep their names and rows."""

import django.db.models.deletion
from django.conf import settings
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


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('programme', '0021_teams_and_search_move_out'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables were made by programme's migrations (0008, 0011): only the state moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Invitation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('email', models.EmailField(max_length=254, verbose_name='email')),
                        ('role', models.CharField(choices=[('owner', 'Owner'), ('editor', 'Editor'), ('viewer', 'Viewer'), ('checkin', 'Check-in')], max_length=20, verbose_name='role')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('invited_by', models.CharField(help_text="A username, or 'command line'", max_length=150, verbose_name='invited by')),
                        ('accepted_at', models.DateTimeField(blank=True, null=True, verbose_name='accepted at')),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='programme.event', verbose_name='event')),
                    ],
                    options={
                        'verbose_name': 'invitation',
                        'verbose_name_plural': 'invitations',
                        'db_table': 'programme_invitation',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='TeamChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('by', models.CharField(help_text="A username, or 'command line'", max_length=150, verbose_name='by')),
                        ('facts', models.JSONField(blank=True, default=dict, verbose_name='facts')),
                        ('description', models.CharField(max_length=300, verbose_name='description')),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='team_changes', to='programme.event', verbose_name='event')),
                    ],
                    options={
                        'verbose_name': 'team change',
                        'verbose_name_plural': 'team changes',
                        'db_table': 'programme_teamchange',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='TeamMember',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('owner', 'Owner'), ('editor', 'Editor'), ('viewer', 'Viewer'), ('checkin', 'Check-in')], max_length=20, verbose_name='role')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='team', to='programme.event', verbose_name='event')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='team_roles', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'verbose_name': 'team member',
                        'verbose_name_plural': 'team members',
                        'db_table': 'programme_teammember',
                        'ordering': ['event', 'user__username'],
                        'constraints': [models.UniqueConstraint(fields=('event', 'user'), name='team_one_role_per_event')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(*move_content_types("teams", ["invitation", "teamchange", "teammember"])),
    ]
