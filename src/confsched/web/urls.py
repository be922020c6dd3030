"""The public pages, by feature: the table of contents of web/.

Each group's views live in the package of the same name (web/schedule/, web/sessions/, ...).
Order matters where one address could match two patterns: `schedule.ics` comes before
`schedule.<extension>`. The site's own pages (about, the icon, log-in and password pages) are
in confsched/urls.py, outside the "web" namespace.
"""

from django.urls import include, path

from confsched.web.accounts import views as accounts
from confsched.web.agenda import alerts, favourites, people, plan, seats
from confsched.web.agenda import feedback as attendee_feedback
from confsched.web.agenda import reminders as agenda_reminders
from confsched.web.agenda import views as agenda
from confsched.web.schedule import changes, elsewhere, exports, search, versions
from confsched.web.schedule import views as schedule
from confsched.web.sessions import cards
from confsched.web.sessions import views as sessions
from confsched.web.site import views as site
from confsched.web.site.languages import choose_language
from confsched.web.speakers import views as speakers
from confsched.web.staff import checkin as staff_checkin
from confsched.web.staff import drafts as staff_drafts
from confsched.web.staff import editor as staff_editor
from confsched.web.staff import feedback as staff_feedback
from confsched.web.staff import seats as staff_seats
from confsched.web.staff import speakers as staff_speakers
from confsched.web.staff import speakers_review as staff_speakers_review
from confsched.web.staff import team as staff_team
from confsched.web.staff import views as staff
from confsched.web.venue import embed, now, offline, print_pages

app_name = "web"

urlpatterns = [
    # Site chrome: the list of events (web/site/).
    path("", site.home, name="home"),
    # The language picker's form: keeps the choice, back to the page (web/site/languages.py).
    path("language/", choose_language, name="language"),
    # Accounts: sign-up; log-in and password pages are in confsched/urls.py (web/accounts/).
    path("accounts/signup/", accounts.signup, name="signup"),
    # Speakers' own pages: the personal link's door, their pages at every event, profile and
    # photo, each session's slides, links and note (web/speakers/). "speaker" is no event.
    path("speaker/", speakers.speaker_home, name="speaker_home"),
    path("speaker/<str:token>/", speakers.speaker_pass, name="speaker_pass"),
    path("speaker/<slug:event>/<str:key>/", speakers.speaker_profile, name="speaker_profile"),
    path(
        "speaker/<slug:event>/<str:key>/sessions/<str:session>/",
        speakers.speaker_session,
        name="speaker_session",
    ),
    # The schedule: list, grid, search, zones, the programme as .ics and in every export
    # format, the change log and its feed (web/schedule/).
    path("<slug:event>/", schedule.schedule, name="schedule"),
    path("<slug:event>/grid/", schedule.grid, name="grid"),
    path("<slug:event>/schedule.ics", schedule.event_calendar, name="event_calendar"),
    path("<slug:event>/search/", search.search, name="search"),
    path("<slug:event>/zones/", schedule.zones, name="zones"),
    path("<slug:event>/changes/", changes.changes, name="changes"),
    path("<slug:event>/changes.atom", changes.changes_feed, name="changes_feed"),
    path("<slug:event>/schedule.<str:extension>", exports.export, name="export"),
    # Every address for calendars, phone apps and programs, on one page.
    path("<slug:event>/elsewhere/", elsewhere.elsewhere, name="elsewhere"),
    # Every version stays readable: its programme and changes, and its exports.
    path("<slug:event>/v/<int:number>/", versions.version_page, name="version"),
    path(
        "<slug:event>/v/<int:number>/schedule2.json",
        versions.version_export,
        {"extension": "schedule2"},
        name="version_schedule2",
    ),
    path(
        "<slug:event>/v/<int:number>/schedule.<str:extension>",
        versions.version_export,
        name="version_export",
    ),
    path(
        "<slug:event>/schedule2.json",
        exports.export,
        {"extension": "schedule2"},
        name="export_schedule2",
    ),
    # Sessions and speakers: their pages, a session as .ics, link preview cards
    # (web/sessions/).
    path("<slug:event>/sessions/<str:key>/", sessions.session_detail, name="session"),
    path(
        "<slug:event>/sessions/<str:key>/calendar.ics",
        sessions.session_calendar,
        name="session_calendar",
    ),
    path("<slug:event>/speakers/", sessions.speakers, name="speakers"),
    path("<slug:event>/speakers/<str:key>/", sessions.speaker_detail, name="speaker"),
    path("<slug:event>/card.png", cards.event_card_png, name="event_card"),
    path(
        "<slug:event>/sessions/<str:key>/card.png",
        cards.session_card_png,
        name="session_card",
    ),
    # The attendee's agenda: stars, my agenda and its feeds and share link, favourites files,
    # alerts, the planner (web/agenda/).
    path("<slug:event>/sessions/<str:key>/star", agenda.star, name="star"),
    path("<slug:event>/sessions/<str:key>/reserve", seats.reserve, name="reserve"),
    path("<slug:event>/sessions/<str:key>/seat/", seats.seat, name="seat"),
    path("<slug:event>/agenda/", agenda.agenda, name="agenda"),
    path("<slug:event>/agenda.ics", agenda.agenda_download, name="agenda_download"),
    path("<slug:event>/agenda/feed/reset", agenda.agenda_feed_reset, name="agenda_feed_reset"),
    path("<slug:event>/agenda/share", agenda.agenda_share, name="agenda_share"),
    path("<slug:event>/agenda/favourites/", favourites.favourites_page, name="favourites"),
    path(
        "<slug:event>/agenda/favourites.json",
        favourites.favourites_download,
        name="favourites_download",
    ),
    path("<slug:event>/agenda/import", favourites.favourites_import, name="favourites_import"),
    path("<slug:event>/agenda/import/star", favourites.favourites_star, name="favourites_star"),
    path("<slug:event>/agenda/shared/<str:token>/", agenda.agenda_shared, name="agenda_shared"),
    path("<slug:event>/agenda/<str:token>.ics", agenda.agenda_feed, name="agenda_feed"),
    path("<slug:event>/agenda/alerts", alerts.alerts_toggle, name="alerts"),
    path(
        "<slug:event>/alerts/unsubscribe/<str:token>/",
        alerts.alerts_unsubscribe,
        name="alerts_unsubscribe",
    ),
    path("<slug:event>/alerts/<str:token>.atom", alerts.alerts_feed, name="alerts_feed"),
    path("<slug:event>/plan/", plan.plan, name="plan"),
    # Reminders (web/agenda/reminders.py).
    path(
        "<slug:event>/agenda/reminders",
        agenda_reminders.reminders_save,
        name="reminders",
    ),
    # People: profiles, the attendee directory, who is going (web/agenda/people.py).
    path("<slug:event>/people/", people.directory, name="people"),
    path("<slug:event>/profile/", people.profile, name="profile"),
    path("<slug:event>/sessions/<str:key>/going/", people.going, name="session_going"),
    # Feedback (web/agenda/feedback.py, web/staff/feedback.py).
    path(
        "<slug:event>/sessions/<str:key>/feedback/",
        attendee_feedback.session_feedback,
        name="feedback",
    ),
    path(
        "<slug:event>/feedback/speaker/<str:token>/",
        attendee_feedback.speaker_feedback,
        name="feedback_speaker",
    ),
    path("<slug:event>/feedback/", staff_feedback.feedback_staff, name="feedback_staff"),
    path(
        "<slug:event>/feedback/speakers/<str:key>/link",
        staff_feedback.feedback_speaker_link,
        name="feedback_speaker_link",
    ),
    # At the venue: the now board, the offline copy, printing and PDFs, the embed
    # (web/venue/).
    path("<slug:event>/now/", now.now, name="now"),
    path("<slug:event>/manifest.webmanifest", offline.manifest, name="manifest"),
    path("<slug:event>/sw.js", offline.service_worker, name="service_worker"),
    path("<slug:event>/version.json", offline.version, name="version"),
    path("<slug:event>/print/", print_pages.print_index, name="print_index"),
    path("<slug:event>/print/<str:day>/", print_pages.print_day, name="print_day"),
    path("<slug:event>/print/<str:day>.pdf", print_pages.print_day_pdf, name="print_day_pdf"),
    path(
        "<slug:event>/agenda/print/<str:day>/",
        print_pages.agenda_print_day,
        name="agenda_print_day",
    ),
    path(
        "<slug:event>/agenda/print/<str:day>.pdf",
        print_pages.agenda_print_day_pdf,
        name="agenda_print_day_pdf",
    ),
    path("<slug:event>/embed/", embed.embed, name="embed"),
    # Staff: who stars what, likely-full sessions (web/staff/; the import page is in the
    # admin, programme/).
    path("<slug:event>/insight/", staff.insight, name="insight"),
    # The draft and its release (web/staff/drafts.py).
    path("<slug:event>/draft/", staff_drafts.draft, name="draft"),
    # The schedule editor: the draft as a grid, its forms and checks (web/staff/editor.py).
    path("<slug:event>/draft/edit/", staff_editor.editor, name="draft_editor"),
    # Seats for organizers: the overview, a session's list, its CSV (web/staff/seats.py).
    path("<slug:event>/seats/", staff_seats.seats_overview, name="seats_overview"),
    path(
        "<slug:event>/sessions/<str:key>/reservations/",
        staff_seats.session_reservations,
        name="session_reservations",
    ),
    path(
        "<slug:event>/sessions/<str:key>/reservations.csv",
        staff_seats.session_reservations_csv,
        name="session_reservations_csv",
    ),
    # Check-in at the door (web/staff/checkin.py).
    path("<slug:event>/checkin/", staff_checkin.checkin_index, name="checkin"),
    path(
        "<slug:event>/sessions/<str:key>/checkin/",
        staff_checkin.checkin_session,
        name="checkin_session",
    ),
    # The event's team: owners manage it; an invitation's link (web/staff/team.py).
    path("<slug:event>/team/", staff_team.team, name="team"),
    path("<slug:event>/team/speakers/", staff_speakers.speakers_staff, name="speakers_staff"),
    path(
        "<slug:event>/team/speakers/review/",
        staff_speakers_review.speakers_review,
        name="speakers_review",
    ),
    path("<slug:event>/team/join/<str:token>/", staff_team.join, name="team_join"),
    # Live at the venue: rooms that are full, their status for the apps (web/venue/).
    path("", include("confsched.web.venue.live_urls")),
    # Web Push: a person's devices (web/agenda/).
    path("", include("confsched.web.agenda.push_urls")),
]
