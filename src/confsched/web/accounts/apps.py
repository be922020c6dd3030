from django.apps import AppConfig


class WebAccountsConfig(AppConfig):
    name = "confsched.web.accounts"
    label = "web_accounts"
    verbose_name = "Accounts"
