"""Teams (TeamMember, Invitation, TeamChange) and search (SessionEmbedding) move to apps of
their own: the models leave this app's state; their tables and rows stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('programme', '0020_session_title_2000'),
    ]

    operations = [
        # The models only change app: their tables stay as they are (teams 0001 and search
        # 0001 take them over by their names).
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='sessionembedding',
                    name='session',
                ),
                migrations.RemoveField(
                    model_name='teamchange',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='teammember',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='teammember',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='Invitation',
                ),
                migrations.DeleteModel(
                    name='SessionEmbedding',
                ),
                migrations.DeleteModel(
                    name='TeamChange',
                ),
                migrations.DeleteModel(
                    name='TeamMember',
                ),
            ],
            database_operations=[],
        ),
    ]
