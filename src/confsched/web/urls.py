from django.urls import path

from confsched.web.accounts import views as views_accounts
from confsched.web.agenda import alerts as views_alerts
from confsched.web.agenda import favourites as views_favourites
from confsched.web.agenda import plan as views_plan
from confsched.web.agenda import views as views_agenda
from confsched.web.schedule import changes as views_changes
from confsched.web.schedule import exports as views_exports
from confsched.web.schedule import search as views_search
from confsched.web.schedule import views
from confsched.web.sessions import cards as views_cards
from confsched.web.staff import views as views_insight
from confsched.web.venue import embed as views_embed
from confsched.web.venue import now as views_now
from confsched.web.venue import offline as views_offline
from confsched.web.venue import print_pages as views_print

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views_accounts.signup, name="signup"),
    path("<slug:event>/", views.schedule, name="schedule"),
    path("<slug:event>/grid/", views.grid, name="grid"),
    path("<slug:event>/schedule.ics", views.event_calendar, name="event_calendar"),
    path("<slug:event>/sessions/<str:key>/", views.session_detail, name="session"),
    path("<slug:event>/sessions/<str:key>/star", views_agenda.star, name="star"),
    path("<slug:event>/card.png", views_cards.event_card_png, name="event_card"),
    path(
        "<slug:event>/sessions/<str:key>/card.png",
        views_cards.session_card_png,
        name="session_card",
    ),
    path(
        "<slug:event>/sessions/<str:key>/calendar.ics",
        views.session_calendar,
        name="session_calendar",
    ),
    path("<slug:event>/search/", views_search.search, name="search"),
    path("<slug:event>/speakers/", views.speakers, name="speakers"),
    path("<slug:event>/zones/", views.zones, name="zones"),
    path("<slug:event>/speakers/<str:key>/", views.speaker_detail, name="speaker"),
    path("<slug:event>/changes/", views_changes.changes, name="changes"),
    path("<slug:event>/changes.atom", views_changes.changes_feed, name="changes_feed"),
    path("<slug:event>/schedule.<str:extension>", views_exports.export, name="export"),
    path(
        "<slug:event>/schedule2.json",
        views_exports.export,
        {"extension": "schedule2"},
        name="export_schedule2",
    ),
    path("<slug:event>/agenda/", views_agenda.agenda, name="agenda"),
    path("<slug:event>/agenda.ics", views_agenda.agenda_download, name="agenda_download"),
    path("<slug:event>/now/", views_now.now, name="now"),
    path("<slug:event>/plan/", views_plan.plan, name="plan"),
    path("<slug:event>/insight/", views_insight.insight, name="insight"),
    path(
        "<slug:event>/agenda/feed/reset", views_agenda.agenda_feed_reset, name="agenda_feed_reset"
    ),
    path("<slug:event>/agenda/share", views_agenda.agenda_share, name="agenda_share"),
    path(
        "<slug:event>/agenda/favourites/",
        views_favourites.favourites_page,
        name="favourites",
    ),
    path(
        "<slug:event>/agenda/favourites.json",
        views_favourites.favourites_download,
        name="favourites_download",
    ),
    path(
        "<slug:event>/agenda/import", views_favourites.favourites_import, name="favourites_import"
    ),
    path(
        "<slug:event>/agenda/import/star", views_favourites.favourites_star, name="favourites_star"
    ),
    path(
        "<slug:event>/agenda/shared/<str:token>/", views_agenda.agenda_shared, name="agenda_shared"
    ),
    path("<slug:event>/agenda/<str:token>.ics", views_agenda.agenda_feed, name="agenda_feed"),
    path("<slug:event>/agenda/alerts", views_alerts.alerts_toggle, name="alerts"),
    path(
        "<slug:event>/alerts/unsubscribe/<str:token>/",
        views_alerts.alerts_unsubscribe,
        name="alerts_unsubscribe",
    ),
    path("<slug:event>/alerts/<str:token>.atom", views_alerts.alerts_feed, name="alerts_feed"),
    path("<slug:event>/embed/", views_embed.embed, name="embed"),
    path("<slug:event>/manifest.webmanifest", views_offline.manifest, name="manifest"),
    path("<slug:event>/sw.js", views_offline.service_worker, name="service_worker"),
    path("<slug:event>/version.json", views_offline.version, name="version"),
    path("<slug:event>/print/", views_print.print_index, name="print_index"),
    path("<slug:event>/print/<str:day>/", views_print.print_day, name="print_day"),
    path("<slug:event>/print/<str:day>.pdf", views_print.print_day_pdf, name="print_day_pdf"),
    path(
        "<slug:event>/agenda/print/<str:day>/",
        views_print.agenda_print_day,
        name="agenda_print_day",
    ),
    path(
        "<slug:event>/agenda/print/<str:day>.pdf",
        views_print.agenda_print_day_pdf,
        name="agenda_print_day_pdf",
    ),
]
