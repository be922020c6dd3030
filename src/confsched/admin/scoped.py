"""Event-scoped admin screens: each person sees and changes only the events their role opens.

Rows: only those of events where the person holds Right.READ (owners, editors, viewers).
Adding, changing and deleting: Right.PROGRAMME on the row's event (owners, editors); viewers
get the read-only screens. An event itself: its settings change with Right.PROGRAMME, it is
deleted with Right.TEAM (owners), and only site administrators create events. Choices of an
event, room, track, level or speaker list only the person's events' rows, and every save and
delete checks the row's own event again, so a list mixing events can never write to one the
person only reads. Site administrators hold every right (teams/access.py).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest

from confsched.programme.models import Event
from confsched.teams.access import can, event_ids_with, holds_anywhere
from confsched.teams.rights import Right

# Foreign keys whose choices are rows of one event, by the path from their model to its event.
EVENT_ROWS = {"event": "pk", "room": "event", "track": "event", "level": "event",
              "speaker": "event"}  # fmt: skip


class EventScoped(admin.ModelAdmin):
    """A ModelAdmin whose rows belong to an event through `event_path` ("event", or "pk" for
    the Event itself)."""

    event_path = "event"
    # What the search box reads: as long as the longest text searched (a session's title). A
    # longer term could match nothing more, and a 100 KB LIKE pattern is an error on SQLite.
    longest_search = 500

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet, search_term: str
    ) -> tuple[QuerySet, bool]:
        return super().get_search_results(request, queryset, search_term[: self.longest_search])

    def event_of(self, obj: Any) -> Event:
        return obj if self.event_path == "pk" else obj.event

    def _within(
        self, request: HttpRequest, queryset: QuerySet, right: Right, path: str
    ) -> QuerySet:
        ids = event_ids_with(request.user, right)
        return queryset if ids is None else queryset.filter(**{f"{path}__in": ids})

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return self._within(request, super().get_queryset(request), Right.READ, self.event_path)

    def _may(self, request: HttpRequest, right: Right, obj: Any = None) -> bool:
        if obj is None:
            return holds_anywhere(request.user, right)
        return can(request.user, self.event_of(obj), right)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._may(request, Right.READ)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, Right.READ, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return self._may(request, Right.PROGRAMME)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, Right.PROGRAMME, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, Right.PROGRAMME, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        path = EVENT_ROWS.get(db_field.name)
        if path is not None and "queryset" not in kwargs:
            rows = db_field.remote_field.model._default_manager.all()
            kwargs["queryset"] = self._within(request, rows, Right.PROGRAMME, path)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changelist_formset(self, request: HttpRequest, **kwargs: Any) -> Any:
        """The list's editable columns, read only on the rows of events the person only reads:
        a list mixing an event they edit and one they view shows both, and saves what they
        may change (a disabled field keeps its value whatever is posted)."""
        formset = super().get_changelist_formset(request, **kwargs)
        editable = event_ids_with(request.user, Right.PROGRAMME)
        if editable is None:
            return formset
        by_pk = self.event_path == "pk"

        class ReadOnlyWhereOnlyRead(formset):  # type: ignore[misc, valid-type]
            def _construct_form(self, i: int, **form_kwargs: Any) -> Any:
                form = super()._construct_form(i, **form_kwargs)
                row = form.instance
                if row.pk is not None and (row.pk if by_pk else row.event_id) not in editable:
                    for name, field in form.fields.items():
                        if name != form._meta.model._meta.pk.name:
                            field.disabled = True
                return form

        return ReadOnlyWhereOnlyRead

    def _check(self, request: HttpRequest, obj: Any, right: Right = Right.PROGRAMME) -> None:
        if self.event_path == "pk" and obj.pk is None:
            return  # a new event: only site administrators may add one (has_add_permission)
        if self.event_path != "pk" and obj.event_id is None:
            raise PermissionDenied
        if not can(request.user, self.event_of(obj), right):
            raise PermissionDenied

    def save_model(self, request, obj, form, change) -> None:  # noqa: ANN001
        self._check(request, obj)
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj) -> None:  # noqa: ANN001
        self._check(request, obj, self.delete_right)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:  # noqa: ANN001
        allowed = self._within(request, queryset, self.delete_right, self.event_path)
        if allowed.count() != queryset.count():
            raise PermissionDenied
        super().delete_queryset(request, queryset)

    delete_right = Right.PROGRAMME


class EventScopedInline:
    """An inline of an event-scoped screen: editable only where the parent is (Right.PROGRAMME),
    its choices only the person's events' rows."""

    def _parent_event(self, obj: Any) -> Event | None:
        return getattr(obj, "event", None) if obj is not None else None

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        event = self._parent_event(obj)
        if event is None:
            return holds_anywhere(request.user, Right.PROGRAMME)
        return can(request.user, event, Right.PROGRAMME)

    has_change_permission = has_add_permission
    has_delete_permission = has_add_permission

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        event = self._parent_event(obj)
        if event is None:
            return holds_anywhere(request.user, Right.READ)
        return can(request.user, event, Right.READ)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        path = EVENT_ROWS.get(db_field.name)
        if path is not None and "queryset" not in kwargs:
            rows = db_field.remote_field.model._default_manager.all()
            ids = event_ids_with(request.user, Right.PROGRAMME)
            kwargs["queryset"] = rows if ids is None else rows.filter(**{f"{path}__in": ids})
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


ONLY_THEIRS = admin.RelatedOnlyFieldListFilter  # a filter lists only the rows one may see


class HistoryAdmin(EventScoped):
    """Read only for everyone: what was done, when, and by whom."""

    list_filter = (("event", ONLY_THEIRS),)
    list_select_related = ("event",)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
