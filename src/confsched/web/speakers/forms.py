"""The speakers' forms: what they type, judged by Django's fields first (lengths, addresses,
NUL characters) and then by the programme's door (programme/services/held.py)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from confsched.interchange import programme as pm

MAX_LINKS = 8
_URL = URLValidator(schemes=["http", "https"])


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("Your e-mail address"), max_length=254,
        help_text=gettext_lazy("Your account's address: the organizers' messages go there, and "
                               "you log in with it later. It is never shown on a page."),
    )  # fmt: skip


class ProfileForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name as shown"), max_length=200)
    position = forms.CharField(label=gettext_lazy("Position"), max_length=200, required=False)
    company = forms.CharField(label=gettext_lazy("Company"), max_length=200, required=False)
    bio = forms.CharField(
        label=gettext_lazy("Bio"), max_length=10000, required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=gettext_lazy("Markdown: *emphasis*, [links](https://…), lists."),
    )  # fmt: skip
    homepage = forms.URLField(
        label=gettext_lazy("Homepage"), max_length=500, required=False, assume_scheme="https"
    )
    links = forms.CharField(
        label=gettext_lazy("Other links"), max_length=4000, required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocapitalize": "off"}),
        help_text=gettext_lazy("Social and other profiles, one address a line (https://…)."),
    )  # fmt: skip

    def clean_links(self) -> list[pm.SessionLink]:
        lines = [line.strip() for line in self.cleaned_data["links"].splitlines() if line.strip()]
        if len(lines) > MAX_LINKS:
            raise ValidationError(gettext("At most %(count)s links.") % {"count": MAX_LINKS})
        for line in lines:
            try:
                _URL(line)
            except ValidationError:
                raise ValidationError(
                    gettext("“%(line)s” is not a web address (https://…).") % {"line": line[:80]}
                ) from None
        return [pm.SessionLink(url=line) for line in lines]


class PhotoForm(forms.Form):
    """A new photo, or the square's place in the kept one (in per cent across and down)."""

    photo = forms.FileField(
        label=gettext_lazy("Photo"), required=False,
        help_text=gettext_lazy("JPEG, PNG or WebP, at most 10 MB and 40 megapixels."),
    )  # fmt: skip
    focus_x = forms.IntegerField(
        label=gettext_lazy("Square's centre across (%)"), min_value=0, max_value=100, initial=50
    )
    focus_y = forms.IntegerField(
        label=gettext_lazy("Square's centre down (%)"), min_value=0, max_value=100, initial=50
    )

    def focus(self) -> tuple[float, float]:
        return self.cleaned_data["focus_x"] / 100, self.cleaned_data["focus_y"] / 100


# A session's links a speaker may give, each a field of its own: (field, kind, title). The
# title is kept in English, whatever the speaker's language, and said in the reader's where
# it is shown (the session page translates a link's label).
SESSION_LINKS = (
    ("recording", pm.VIDEO, gettext_noop("Recording")),
    ("stream", pm.VIDEO, gettext_noop("Live stream")),
    ("code", pm.LINK, gettext_noop("Code")),
    ("slides_elsewhere", pm.SLIDES, gettext_noop("Slides")),
)


class SessionForm(forms.Form):
    recording = forms.URLField(
        label=gettext_lazy("Recording"), max_length=500, required=False, assume_scheme="https"
    )
    stream = forms.URLField(
        label=gettext_lazy("Live stream"), max_length=500, required=False, assume_scheme="https"
    )
    code = forms.URLField(
        label=gettext_lazy("Code"), max_length=500, required=False, assume_scheme="https"
    )
    slides_elsewhere = forms.URLField(
        label=gettext_lazy("Slides hosted elsewhere"), max_length=500, required=False,
        assume_scheme="https",
    )  # fmt: skip
    note = forms.CharField(
        label=gettext_lazy("A note to the organizers"), max_length=4000, required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("Only the event's team reads it."),
    )  # fmt: skip

    def links(self) -> list[pm.SessionLink]:
        return [
            pm.SessionLink(url=self.cleaned_data[field], title=title, kind=kind)
            for field, kind, title in SESSION_LINKS
            if self.cleaned_data[field]
        ]

    @staticmethod
    def initial_from(links: list[pm.SessionLink], note: str) -> dict[str, str]:
        initial = {"note": note}
        for field, kind, title in SESSION_LINKS:
            found = next((x for x in links if x.kind == kind and x.title == title), None)
            if found is None and field == "slides_elsewhere":
                found = next((x for x in links if x.kind == kind), None)
            if found is not None:
                initial[field] = found.url
        return initial
