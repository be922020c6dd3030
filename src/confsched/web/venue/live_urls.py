"""Live at the venue's pages: rooms that are full (web/venue/rooms.py) and the team's
announcements (web/venue/news.py, web/staff/announcements.py), included by web/urls.py under
the "web" namespace."""

from django.urls import path

from confsched.web.staff import announcements
from confsched.web.venue import news, rooms

urlpatterns = [
    # FOSDEM's address and shape, under the event's address (apps read it unchanged).
    path("<slug:event>/roomstatus/v1/listrooms", rooms.listrooms, name="listrooms"),
    path("<slug:event>/rooms/<slug:room>/status/", rooms.mark_room, name="room_status"),
    path("<slug:event>/announcements.json", news.announcements_json, name="announcements_json"),
    path("<slug:event>/announcements.atom", news.announcements_feed, name="announcements_feed"),
    path(
        "<slug:event>/team/announcements/",
        announcements.announcements_staff,
        name="announcements_staff",
    ),  # fmt: skip
]
