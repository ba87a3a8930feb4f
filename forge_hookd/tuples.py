"""``NamedTuple`` as type checkers know it, built at run time without ``eval``.

``typing.NamedTuple`` builds each class's ``__new__`` by compiling Python source with
``eval``, and under ``from __future__ import annotations`` compiles every field's
annotation once more into a ``ForwardRef``: 0.93 M instructions a class of four fields,
against 0.06 M for a plain class (callgrind, Python 3.11.7; see
bench/README.md, "Record types on the event path"). A run with the guard pack defines
fifteen of them as it starts. This one reads the field names from the
class body, its annotations left unread, and keeps every behaviour of a named tuple
that forge uses: a tuple's equality, hash, order and unpacking, ``_fields``,
``_field_defaults``, ``_replace``, ``_make``, ``_asdict`` and the same ``repr``. Type
checkers see ``typing.NamedTuple`` itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["NamedTuple"]

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    from collections import _tuplegetter  # the C accessor collections.namedtuple uses

    class _Meta(type):
        def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
            if bases == (tuple,):  # the base class itself
                return super().__new__(mcls, name, bases, namespace)
            fields = tuple(namespace.get("__annotations__", ()))
            defaults = {f: namespace.pop(f) for f in fields if f in namespace}
            if any(f not in defaults for f in fields[len(fields) - len(defaults):]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            for index, field in enumerate(fields):
                namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
            namespace.update(__slots__=(), _fields=fields, _field_defaults=defaults)
            return super().__new__(mcls, name, bases, namespace)

    class NamedTuple(tuple, metaclass=_Meta):
        __slots__ = ()
        _fields: tuple[str, ...] = ()
        _field_defaults: dict[str, Any] = {}

        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            fields = cls._fields
            if kwargs or len(args) != len(fields):
                args = _filled(cls, args, kwargs)
            return tuple.__new__(cls, args)

        @classmethod
        def _make(cls, iterable: Any) -> Any:
            return cls(*iterable)

        def _replace(self, **changes: Any) -> Any:
            values = [changes.pop(f) if f in changes else v for f, v in zip(self._fields, self)]
            return type(self)(*values, **changes)  # a name left over is no field: the call says so

        def _asdict(self) -> dict[str, Any]:
            return dict(zip(self._fields, self))

        def __getnewargs__(self) -> tuple[Any, ...]:
            return tuple(self)

        def __repr__(self) -> str:
            shown = ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
            return f"{type(self).__name__}({shown})"

    def _filled(cls: type[NamedTuple], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
        values = list(args)
        for field in fields[len(args):]:
            if field in kwargs:
                values.append(kwargs.pop(field))
            elif field in cls._field_defaults:
                values.append(cls._field_defaults[field])
            else:
                raise TypeError(f"{cls.__name__}() missing required argument: '{field}'")
        if kwargs:
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        return tuple(values)
