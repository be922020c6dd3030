"""One account per e-mail address, held by the database: a unique index on Django's user table,
on the trimmed, lower-cased address, empty addresses left out (web/accounts/emails.py).

A database that already holds an address twice still migrates: the index is left out and the
addresses with their accounts are logged as a warning, to merge before `confsched unique-emails`
makes it (`confsched check --database default` warns until then). Going back drops the index.
"""

from django.db import migrations

from confsched.web.accounts import emails


def make_index(apps, schema_editor):  # noqa: ANN001, ANN201
    User = apps.get_model("auth", "User")
    found = emails.duplicates(User.objects.using(schema_editor.connection.alias))
    if found:
        emails.logger.warning(emails.merge_advice(found))
        return
    schema_editor.add_constraint(User, emails.unique_email())


def drop_index(apps, schema_editor):  # noqa: ANN001, ANN201
    if emails.has_unique_index(schema_editor.connection.alias):
        schema_editor.remove_constraint(apps.get_model("auth", "User"), emails.unique_email())


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(make_index, drop_index)]
