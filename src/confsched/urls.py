from django.contrib import admin
from django.urls import include, path, re_path

from confsched.api.api import api
from confsched.web.accounts import data as account_data
from confsched.web.accounts import views as accounts
from confsched.web.site import media
from confsched.web.site import views as views_site

handler404 = "confsched.web.site.views.page_not_found"
handler500 = "confsched.web.site.views.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("about/", views_site.about, name="about"),
    path("favicon.ico", views_site.favicon, name="favicon"),
    # Files people upload (speakers' photos and slides), by their content's name, outside every
    # event's pages ("media" is a reserved slug): everything under /media/, /media/ itself
    # too, is the view's to answer. nginx serves them itself in production.
    re_path(r"^media/(?P<name>.*)\Z", media.media, name="media"),
    path("accounts/login/", accounts.ConfschedLoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/change/",
        accounts.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        accounts.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # A person's own data: all of it as JSON, and deleting the account (web/accounts/data.py).
    path("accounts/data.json", account_data.data_download, name="account_data"),
    path("accounts/delete/", account_data.delete_account, name="account_delete"),
    path("accounts/password/reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        accounts.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        accounts.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include("confsched.web.urls")),
]
