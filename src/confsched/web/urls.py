from django.urls import path

from confsched.web import views, views_accounts, views_agenda, views_changes, views_exports

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views_accounts.signup, name="signup"),
    path("<slug:event>/", views.schedule, name="schedule"),
    path("<slug:event>/grid/", views.grid, name="grid"),
    path("<slug:event>/schedule.ics", views.event_calendar, name="event_calendar"),
    path("<slug:event>/sessions/<str:key>/", views.session_detail, name="session"),
    path("<slug:event>/sessions/<str:key>/star", views_agenda.star, name="star"),
    path(
        "<slug:event>/sessions/<str:key>/calendar.ics",
        views.session_calendar,
        name="session_calendar",
    ),
    path("<slug:event>/speakers/", views.speakers, name="speakers"),
    path("<slug:event>/zones/", views.zones, name="zones"),
    path("<slug:event>/speakers/<str:key>/", views.speaker_detail, name="speaker"),
    path("<slug:event>/changes/", views_changes.changes, name="changes"),
    path("<slug:event>/changes.atom", views_changes.changes_feed, name="changes_feed"),
    path("<slug:event>/schedule.<str:extension>", views_exports.export, name="export"),
    path("<slug:event>/agenda/", views_agenda.agenda, name="agenda"),
    path(
        "<slug:event>/agenda/feed/reset", views_agenda.agenda_feed_reset, name="agenda_feed_reset"
    ),
    path("<slug:event>/agenda/share", views_agenda.agenda_share, name="agenda_share"),
    path(
        "<slug:event>/agenda/shared/<str:token>/", views_agenda.agenda_shared, name="agenda_shared"
    ),
    path("<slug:event>/agenda/<str:token>.ics", views_agenda.agenda_feed, name="agenda_feed"),
]
