"""Queries every request asks, compiled by the ORM once and then sent as plain statements.

The ORM compiles a queryset into SQL anew each time it runs: for the few lookups nearly every
request makes (the event by its address, the signed-in person, their roles) that compile costs
more than the database does. A `Prepared` query is written as an ordinary queryset, with a
placeholder where the value of each request goes; it is compiled the first time a connection
runs it and kept for that connection (connections belong to one thread), and each run sends
the kept statement with the new values. Rows go through the same converters the ORM applies
(dates on SQLite, for instance), and model rows are made with `Model.from_db`, as the ORM
makes them; so the result is what the queryset itself would have returned.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators

M = TypeVar("M", bound=Model)


def _placeholder(name: str, kind: type, number: int) -> Any:
    """A value that stands in the queryset for the one given at each run, found again among the
    compiled statement's parameters: a string with NUL bytes, or a number within every
    integer column's range but for small ones (Django drops a comparison with a number out of
    the column's range, so the placeholder would vanish: `_compiled` counts that it is there)."""
    if kind is str:
        return f"\x00prepared:{name}\x00"
    if kind is int:
        return 2_146_000_000 + number
    raise TypeError(f"placeholders are str or int, not {kind.__name__}")


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: dict[str, int]  # placeholder name -> its index among the parameters
    own: slice  # where the model's own columns are in a row
    fields: tuple[str, ...]  # their attribute names, in order
    populators: tuple[Any, ...]  # what makes the related rows select_related asked for
    converters: dict[int, Any]
    compiler: Any


class Prepared(Generic[M]):
    """`build(**placeholders)` returns the queryset; `rows(**values)` and `instances(**values)`
    run it with values in the placeholders' places. `kinds` names each value and its type:
    `Prepared(Event, lambda slug: Event.objects.filter(slug=slug), slug=str)`."""

    def __init__(self, model: type[M], build: Callable[..., QuerySet[Any]], **kinds: type) -> None:
        self.model = model
        self.build = build
        self.names = tuple(kinds)
        self.kinds = kinds
        self._kept: weakref.WeakKeyDictionary[Any, _Compiled] = weakref.WeakKeyDictionary()

    def _compiled(self, alias: str) -> _Compiled:
        connection = connections[alias]
        compiled = self._kept.get(connection)
        if compiled is None:
            placeholders = {
                name: _placeholder(name, kind, number)
                for number, (name, kind) in enumerate(self.kinds.items())
            }
            queryset = self.build(**placeholders)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            slots = {}
            for name, placeholder in placeholders.items():
                found = [
                    i for i, param in enumerate(params)
                    if isinstance(param, type(placeholder)) and param == placeholder
                ]  # fmt: skip
                if len(found) != 1:
                    raise ValueError(f"placeholder {name!r} is in the statement {len(found)} times")
                slots[name] = found[0]
            expressions = [column for column, _, _ in compiler.select]
            # Where the model's own columns are, and how related rows (select_related) are
            # made: what Django's ModelIterable works out for each run, worked out once.
            info = compiler.klass_info if queryset._iterable_class is ModelIterable else None
            own = slice(*((info["select_fields"][0], info["select_fields"][-1] + 1) if info
                          else (0, 0)))  # fmt: skip
            compiled = _Compiled(
                sql=sql, params=tuple(params), slots=slots,
                own=own, fields=tuple(column.target.attname for column in expressions[own]),
                populators=tuple(get_related_populators(info, compiler.select, alias))  # type: ignore[call-arg]  # django-stubs has a later signature
                if info else (),
                converters=compiler.get_converters(expressions), compiler=compiler,
            )  # fmt: skip
            self._kept[connection] = compiled
        return compiled

    def rows(self, **values: Any) -> list[tuple[Any, ...]]:
        """The statement's rows, converted as the ORM converts them."""
        return self._run(router.db_for_read(self.model), values)[1]

    def instances(self, **values: Any) -> list[M]:
        """The rows as model instances, with what select_related asked for and without what
        only() or defer() left out, as the queryset makes them."""
        alias = router.db_for_read(self.model)
        compiled, rows = self._run(alias, values)
        if not compiled.fields:
            raise TypeError("this query selects values, not model rows: use rows()")
        made = []
        for row in rows:
            instance = self.model.from_db(alias, compiled.fields, row[compiled.own])
            for populator in compiled.populators:
                populator.populate(row, instance)
            made.append(instance)
        return made

    def _run(self, alias: str, values: dict[str, Any]) -> tuple[_Compiled, list[tuple[Any, ...]]]:
        if set(values) != set(self.names):
            raise TypeError(f"give exactly {sorted(self.names)}, not {sorted(values)}")
        compiled = self._compiled(alias)
        params = list(compiled.params)
        for name, value in values.items():
            slot = compiled.slots[name]
            # As the ORM sent it: psycopg's Int4 for an integer column on PostgreSQL, say.
            params[slot] = type(params[slot])(value)
        with connections[alias].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if compiled.converters:
            rows = [
                tuple(row) for row in compiled.compiler.apply_converters(rows, compiled.converters)
            ]
        return compiled, rows
