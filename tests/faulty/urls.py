"""The site's addresses, and /faulty/left-open/<event>/: a view that begins a transaction past
Django (a raw BEGIN, as agenda/seat_statements.py sends one), locks the event's row, and fails
with a database error before it ends the transaction."""

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import path

from confsched.urls import handler404, handler500
from confsched.urls import urlpatterns as site

__all__ = ["handler404", "handler500", "urlpatterns"]


def left_open(request: HttpRequest, event: str) -> HttpResponse:
    connection.ensure_connection()
    raw = connection.connection
    raw.execute("BEGIN")
    raw.execute("SELECT 1 FROM programme_event WHERE slug = %s FOR UPDATE", [event])
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s", ["a\x00b"])  # psycopg refuses it: DataError
    return HttpResponse("not reached")


urlpatterns = [path("faulty/left-open/<slug:event>/", left_open), *site]
