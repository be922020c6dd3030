"""Organizer screens. Edits here are plain model saves; imports go through load_programme.

Every screen is scoped to the events the person's role opens (admin/scoped.py)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.db import models, transaction
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.translation import gettext, gettext_lazy, ngettext

from confsched.admin.importing import embed_after_edit, import_view
from confsched.admin.scoped import ONLY_THEIRS, EventScoped, EventScopedInline, HistoryAdmin
from confsched.core.numbers import BIG_INTEGER_MAX, parse_count
from confsched.core.text import one_line
from confsched.programme.actors import actor_name
from confsched.programme.changes import PROFILE_LABELS
from confsched.programme.models import (
    HOLDABLE,
    Event,
    Level,
    LinkKind,
    Room,
    ScheduleVersion,
    Session,
    SessionLink,
    SessionSpeaker,
    Speaker,
    Track,
)
from confsched.programme.services import (
    move_version,
    record_edit,
    release_held,
    session_facts,
)
from confsched.search.worker import embedding_progress, progress_text
from confsched.teams.access import can, event_ids_with, events_with, is_site_admin
from confsched.teams.rights import Right


class PlainLineEndsField(forms.CharField):
    """A text field whose value has LF line ends, whatever the browser sent.

    Browsers submit every textarea with CR LF, so a stored "a\nb" came back as "a\r\nb": an
    untouched save looked like an edit (a new SEQUENCE for calendars, a "description changed"
    version). Normalising in to_python, not in clean(), makes the form's changed_data compare
    like with like, so an untouched field is not even seen as changed.
    """

    def to_python(self, value: Any) -> str | None:
        text = super().to_python(value)
        return text.replace("\r\n", "\n").replace("\r", "\n") if text else text


class OneLineField(forms.CharField):
    """A text field kept on one line (an event's name: it heads pages, calendars and the
    subject of every mail the event sends), whatever was pasted into it."""

    def to_python(self, value: Any) -> str | None:
        text = super().to_python(value)
        return one_line(text) if text else text


# Every admin form and inline in this module builds its TextFields with it.
PLAIN_LINE_ENDS: dict[type[models.Field], dict[str, Any]] = {
    models.TextField: {"form_class": PlainLineEndsField}
}


class TouchesEvent(EventScoped):
    """Edits move the event's `updated_at`, which retires cached pages and fragments of it."""

    formfield_overrides = PLAIN_LINE_ENDS

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # A draft's rows are edited through the draft page and its services, not here.
        return super().get_queryset(request).filter(event__draft_of__isnull=True)

    def _touch(self, obj) -> None:  # noqa: ANN001 - any model with an event
        Event.objects.filter(pk=obj.event_id).update(updated_at=timezone.now())

    # Whether saving a row moves the version here; SessionAdmin moves it with the edit it records.
    touches_on_save = True

    def save_related(self, request, form, formsets, change) -> None:  # noqa: ANN001
        super().save_related(request, form, formsets, change)
        if self.touches_on_save:
            self._touch(form.instance)

    def delete_model(self, request, obj) -> None:  # noqa: ANN001
        super().delete_model(request, obj)
        self._touch(obj)

    def delete_queryset(self, request, queryset) -> None:  # noqa: ANN001
        events = set(queryset.values_list("event_id", flat=True))
        super().delete_queryset(request, queryset)
        Event.objects.filter(pk__in=events).update(updated_at=timezone.now())


def _pk(object_id: str | None) -> int | None:
    """The id an admin address names, or None for one no row has ("²", 5,000 digits): the
    admin's own lookup says "does not exist" for those, where filtering by them raised."""
    return parse_count(unquote(object_id or ""), most=BIG_INTEGER_MAX)


def _only_event(request: HttpRequest) -> Event | None:
    """The event a new session belongs to when the person may edit just one."""
    ids = event_ids_with(request.user, Right.PROGRAMME)
    found = Event.objects.all() if ids is None else Event.objects.filter(pk__in=ids)
    events = list(found[:2])
    return events[0] if len(events) == 1 else None


@admin.register(Event)
class EventAdmin(EventScoped):
    event_path = "pk"
    delete_right = Right.TEAM  # deleting an event: its owners (and site administrators)
    # The sync URL: a bare host name means https, as for speakers' pictures.
    formfield_overrides = {**PLAIN_LINE_ENDS, models.URLField: {"assume_scheme": "https"}}
    list_display = ("name", "slug", "timezone", "start_date", "end_date", "insight_link")
    one_line_fields = ("name", "location")
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name", "slug")

    readonly_fields = ("embed_snippet", "search_by_meaning")

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_site_admin(request.user)  # a new event has no team yet

    def formfield_for_dbfield(self, db_field, request, **kwargs):  # noqa: ANN001, ANN003, ANN201
        if db_field.name in self.one_line_fields:
            kwargs["form_class"] = OneLineField
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def change_view(self, request, object_id, form_url="", extra_context=None):  # noqa: ANN001, ANN201
        # Owners (and site administrators) manage the team from the event's page too.
        event = self.get_queryset(request).filter(pk=_pk(object_id)).first()
        team_url = (
            reverse("web:team", args=[event.slug])
            if event is not None and can(request.user, event, Right.TEAM)
            else ""
        )
        extra = {**(extra_context or {}), "team_url": team_url}
        return super().change_view(request, object_id, form_url, extra)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, Right.TEAM, obj)

    def get_urls(self) -> list[Any]:
        # The import page (admin/importing.py), linked from the change page's tools.
        view = self.admin_site.admin_view(partial(import_view, model_admin=self))
        name = f"{self.opts.app_label}_{self.opts.model_name}_import"
        return [path("<path:object_id>/import/", view, name=name), *super().get_urls()]

    def get_object(self, request: HttpRequest, object_id: str, from_field: Any = None) -> Any:
        event = super().get_object(request, object_id, from_field)
        if event is not None:
            # The snippet names the address this site is reached at, which only the request knows.
            event.embed_url = request.build_absolute_uri(
                reverse("web:embed", kwargs={"event": event.slug})
            )
        return event

    @admin.display(description=gettext_lazy("Insight"))
    def insight_link(self, event: Event) -> str:
        # Where the stars say which rooms will be full: linked from the admin, staff only.
        return format_html(
            '<a href="{}">{}</a>',
            reverse("web:insight", args=[event.slug]),
            gettext("Stars and rooms"),
        )

    @admin.display(description=gettext_lazy("Search by meaning"))
    def search_by_meaning(self, event: Event) -> str:
        # How far the embedding worker is (search/semantic.py).
        if event.pk is None:
            return gettext("Save the event first.")
        return progress_text(embedding_progress(event))

    @admin.display(description=gettext_lazy("Embed snippet"))
    def embed_snippet(self, event: Event) -> str:
        if not getattr(event, "embed_url", ""):
            return gettext("Save the event first.")
        return embed_snippet_html(event, url=event.embed_url)


def embed_snippet_html(event: Event, *, url: str) -> str:
    """The one line an organizer pastes into their site, shown ready to copy."""
    snippet = (
        f'<iframe src="{escape(url)}" title="{escape(event.name)}: schedule" '
        'width="100%" height="600" loading="lazy"></iframe>'
    )
    return format_html(
        '<code>{}</code><p class="help">{}</p>',
        snippet,
        gettext("Paste it into a page of a site listed in Embed origins; other sites are refused."),
    )


class FacetAdmin(TouchesEvent):
    list_display = ("name", "event", "slug", "position")
    list_editable = ("position",)
    list_filter = (("event", ONLY_THEIRS),)
    search_fields = ("name",)


@admin.register(Room)
class RoomAdmin(FacetAdmin):
    # Capacity beside the name: the insight page compares each session's stars with it.
    list_display = ("name", "event", "slug", "position", "capacity")
    list_editable = ("position", "capacity")


admin.site.register(Track, FacetAdmin)
admin.site.register(Level, FacetAdmin)


class SessionSpeakerInline(EventScopedInline, admin.TabularInline):
    model = SessionSpeaker
    extra = 0
    formfield_overrides = PLAIN_LINE_ENDS
    autocomplete_fields = ("speaker",)


class SessionLinkInline(EventScopedInline, admin.TabularInline):
    """Slides, recordings and other pages; an import from a format with links replaces them."""

    model = SessionLink
    extra = 0
    fields = ("position", "kind", "title", "url", "held_by")
    # A speaker's link: an import never touches it (services/held.py).
    readonly_fields = ("held_by",)
    # A bare host name means https, as for speakers' pictures.
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Session)
class SessionAdmin(TouchesEvent):
    touches_on_save = False  # save_related: record_edit moves it with the step of the edit
    # Stars beside the title: at 1280 px a long title pushed the last columns off-screen.
    list_display = (
        "title", "star_count", "starts", "room", "kind", "track", "level", "needs_review",
    )  # fmt: skip
    list_filter = (
        ("event", ONLY_THEIRS), "needs_review", ("track", ONLY_THEIRS), ("level", ONLY_THEIRS),
        ("room", ONLY_THEIRS), "has_slides",
    )  # fmt: skip
    list_select_related = ("event", "room", "track", "level")
    search_fields = ("title", "abstract", "key")
    date_hierarchy = "starts_at"
    inlines = (SessionSpeakerInline, SessionLinkInline)
    # Seats change on the session's reservations page, under the reservations' lock, so
    # that more seats move people up from the waitlist.
    readonly_fields = ("key", "sequence", "updated_at", "seats_and_reservations")

    @admin.display(description=gettext_lazy("Seats"))
    def seats_and_reservations(self, obj: Session) -> str:
        if obj.pk is None:
            return gettext("Save the session first.")
        url = reverse("web:session_reservations", args=[obj.event.slug, obj.key])
        text = (
            ngettext("%(counter)s seat", "%(counter)s seats", obj.seats) % {"counter": obj.seats}
            if obj.seats is not None
            else gettext("Open entry")
        )
        return format_html('{} · <a href="{}">{}</a>', text, url, gettext("Seats and reservations"))

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*(super().get_exclude(request, obj) or []), "seats"]

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):  # noqa: ANN001, ANN201
        # Organizers read and type times in the event's own zone, not the server's UTC.
        found = self.get_queryset(request).filter(pk=_pk(object_id))
        session = found.select_related("event").first()
        event = session.event if session else _only_event(request)
        if event is None:
            return super().changeform_view(request, object_id, form_url, extra_context)
        with timezone.override(event.zone):
            subtitle = gettext("Times in %(zone)s") % {"zone": event.timezone}
            extra = {**(extra_context or {}), "subtitle": subtitle}
            response = super().changeform_view(request, object_id, form_url, extra)
            if hasattr(response, "render"):  # a lazy TemplateResponse: render in the zone
                response.render()
            return response

    def changelist_view(self, request, extra_context=None):  # noqa: ANN001, ANN201
        # The date drill-down groups by day in the current zone: the event's, when the list
        # holds one event's sessions, so that its days are the attendees' days.
        chosen = parse_count(request.GET.get("event__id__exact", ""), most=BIG_INTEGER_MAX)
        mine = events_with(request.user, Right.READ)
        event = mine.filter(pk=chosen).first() if chosen is not None else _only_event(request)
        if event is None:
            return super().changelist_view(request, extra_context)
        with timezone.override(event.zone):
            response = super().changelist_view(request, extra_context)
            if hasattr(response, "render"):  # a lazy TemplateResponse: render in the zone
                response.render()
            return response

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        # How many attendees starred each session (never who), to size rooms.
        return super().get_queryset(request).annotate(star_total=Count("agenda_items"))

    @admin.display(description=gettext_lazy("Starts (event's zone)"), ordering="starts_at")
    def starts(self, obj: Session) -> str | None:
        # Each row in its own event's zone, named, as the change form shows it; the list may
        # hold several events, so no one zone fits the whole page.
        if obj.starts_at is None:
            return None  # the admin's own mark for an empty value
        local = obj.starts_at.astimezone(obj.event.zone)
        return f"{local:%a} {local.day} {local:%b %Y %H:%M} {obj.event.timezone}"

    @admin.display(description=gettext_lazy("Stars"), ordering="star_total")
    def star_count(self, obj: Session) -> int:
        return obj.star_total

    def _touch(self, obj) -> None:  # noqa: ANN001 - a session
        """A session saved moves the version with a step naming it (its own row, links and
        speakers' places are all the edit can change); one deleted has no pk left to name."""
        if obj.pk is None:
            super()._touch(obj)
        else:
            move_version(obj.event, [obj.pk])

    def save_model(self, request, obj, form, change) -> None:  # noqa: ANN001
        # What the session was before this edit, to record the edit as a change.
        obj._facts_before = session_facts(obj) if change else None
        if change and form.changed_data:
            obj.sequence += 1
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change) -> None:  # noqa: ANN001
        super().save_related(request, form, formsets, change)
        session = form.instance
        updated = []
        links_changed = any(f.has_changed() for f in formsets if f.model is SessionLink)
        if change and links_changed and not form.changed_data:  # calendars show the links
            session.sequence += 1
            updated.append("sequence")
        if not session.has_slides and session.links.filter(kind=LinkKind.SLIDES).exists():
            session.has_slides = True  # a session with a slides link has slides
            updated.append("has_slides")
        if updated:
            session.save(update_fields=[*updated, "updated_at"])
        if record_edit(session, session._facts_before, editor=actor_name(request.user)) is None:
            self._touch(session)  # nothing the public sees: the version moves all the same, once
        if not change or {"title", "abstract"} & set(form.changed_data):
            # Once the edit is saved (the admin's own transaction commits).
            transaction.on_commit(lambda: embed_after_edit(request, session.event))


def https_by_default(field: models.Field, **kwargs: Any) -> forms.Field | None:
    """A model field's form field; an address typed without a scheme means https (as
    Django 6 will assume), for the avatar's and the homepage's."""
    if isinstance(field, models.URLField):
        kwargs.setdefault("assume_scheme", "https")
    return field.formfield(**kwargs)


class SpeakerForm(forms.ModelForm):
    """A speaker's row, and the fields they hold that the organizer gives back to the file."""

    release = forms.MultipleChoiceField(
        choices=[(name, PROFILE_LABELS[name]) for name in HOLDABLE],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Use the file's value next import"),
        help_text=gettext_lazy("The speaker set these fields; an import keeps them unless ticked."),
    )

    class Meta:
        model = Speaker
        # Every field but `held` and `links` (shown read-only): a Meta naming no field would
        # leave the admin's form with none to edit.
        fields = ("event", "key", "name", "company", "position", "bio", "avatar_url", "homepage")
        formfield_callback = staticmethod(https_by_default)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        held = self.instance.held or {}
        field = self.fields["release"]
        field.choices = [(name, gettext(PROFILE_LABELS[name])) for name in HOLDABLE if name in held]


@admin.register(Speaker)
class SpeakerAdmin(TouchesEvent):
    form = SpeakerForm
    # Avatars are links to other sites; a bare host name means https, as Django 6 will assume.
    formfield_overrides = {**PLAIN_LINE_ENDS, models.URLField: {"assume_scheme": "https"}}
    list_display = ("name", "company", "position", "event")
    list_filter = (("event", ONLY_THEIRS),)
    search_fields = ("name", "company")
    readonly_fields = ("key", "held_fields", "speaker_links")
    # Held marks and the speaker's links are the speaker's: shown read-only.
    exclude = ("held", "links")

    @admin.display(description=gettext_lazy("Set by the speaker"))
    def held_fields(self, obj: Speaker) -> str:
        words = [
            gettext("%(field)s by %(by)s")
            % {"field": gettext(PROFILE_LABELS[name]), "by": held[name].get("by", "")}
            for name in HOLDABLE  # in the form's order: PostgreSQL's jsonb keeps none
            if name in (held := obj.held or {})
        ]
        return "; ".join(words) or gettext("nothing")

    @admin.display(description=gettext_lazy("Links"))
    def speaker_links(self, obj: Speaker) -> str:
        return " ".join(link.get("url", "") for link in obj.links or ())

    def save_model(self, request, obj, form, change) -> None:  # noqa: ANN001
        super().save_model(request, obj, form, change)
        if released := form.cleaned_data.get("release"):
            release_held(obj, list(released))


@admin.register(ScheduleVersion)
class ScheduleVersionAdmin(HistoryAdmin):
    # Each import, sync and edit made one; "by" is an account or "command line".
    list_display = ("number", "event", "created_at", "by", "source", "summary")
    search_fields = ("source", "summary", "by")
