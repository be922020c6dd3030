from django.apps import AppConfig


class WebStaffConfig(AppConfig):
    name = "confsched.web.staff"
    label = "web_staff"
    verbose_name = "Staff pages"
