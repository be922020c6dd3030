from django.apps import AppConfig


class WebAccountsConfig(AppConfig):
    name = "confsched.web.accounts"
    label = "web_accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from confsched.web.accounts import checks  # noqa: F401 - registers the check
