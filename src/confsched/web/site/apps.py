from django.apps import AppConfig


class WebSiteConfig(AppConfig):
    name = "confsched.web.site"
    label = "web_site"
    verbose_name = "Shared page machinery and site chrome"
