"""Organizer screens. Edits here are plain model saves; imports go through load_programme."""

from __future__ import annotations

from django.contrib import admin

from confsched.programme.models import Event, Level, Room, Session, SessionSpeaker, Speaker, Track


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "timezone", "start_date", "end_date")
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name", "slug")


class FacetAdmin(admin.ModelAdmin):
    list_display = ("name", "event", "slug", "position")
    list_editable = ("position",)
    list_filter = ("event",)
    search_fields = ("name",)


admin.site.register(Room, FacetAdmin)
admin.site.register(Track, FacetAdmin)
admin.site.register(Level, FacetAdmin)


class SessionSpeakerInline(admin.TabularInline):
    model = SessionSpeaker
    extra = 0
    autocomplete_fields = ("speaker",)


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("title", "kind", "starts_at", "room", "track", "level", "needs_review")
    list_filter = ("event", "needs_review", "track", "level", "room", "has_slides")
    list_select_related = ("room", "track", "level")
    search_fields = ("title", "abstract", "key")
    date_hierarchy = "starts_at"
    inlines = (SessionSpeakerInline,)
    readonly_fields = ("key", "updated_at")


@admin.register(Speaker)
class SpeakerAdmin(admin.ModelAdmin):
    list_display = ("name", "company", "position", "event")
    list_filter = ("event",)
    search_fields = ("name", "company")
    readonly_fields = ("key",)
