"""Search as stored: each session's vector for search by meaning (search/semantic.py makes them).

The table keeps the name it had when the model lived in programme/ (migration search 0001 took
the model over without touching the database)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class SessionEmbedding(models.Model):
    """A session's title and abstract as a sentence-embedding vector, for "found by meaning".

    `text_digest` is of the text embedded, so that a re-import embeds only what changed;
    `vector` holds float32 values, little-endian, unit length (cosine is a dot product).
    """

    session = models.OneToOneField(
        "programme.Session",
        on_delete=models.CASCADE,
        related_name="embedding",
        verbose_name=_("session"),
    )
    model_name = models.CharField(max_length=100, verbose_name=_("model name"))
    text_digest = models.CharField(max_length=64, verbose_name=_("text digest"))
    vector = models.BinaryField(verbose_name=_("vector"))

    class Meta:
        db_table = "programme_sessionembedding"  # made when this model lived in programme/
        verbose_name = _("session embedding")
        verbose_name_plural = _("session embeddings")

    def __str__(self) -> str:
        return f"{self.session_id} ({self.model_name})"
