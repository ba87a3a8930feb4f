"""forge_hookd.tuples.NamedTuple behaves as typing.NamedTuple does, for everything forge
uses of one: each check runs against a twin class built by typing, so a difference fails."""

from __future__ import annotations

import pickle
import typing
from typing import Any

import pytest

from forge_hookd.tuples import NamedTuple


class Point(NamedTuple):
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def total(self) -> int:
        return self.x + self.y


class TypingPoint(typing.NamedTuple):
    x: int
    y: int = 0
    label: str | None = None


def both(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
    return Point(*args, **kwargs), TypingPoint(*args, **kwargs)


@pytest.mark.parametrize("args,kwargs", [((1,), {}), ((1, 2), {}), ((1, 2, "a"), {}), ((), {"x": 3}),
                                         ((1,), {"label": "b"}), ((), {"label": "c", "x": 0, "y": 5})])
def test_made_as_typing_makes_it(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    ours, theirs = both(*args, **kwargs)
    assert tuple(ours) == tuple(theirs) and ours == theirs and hash(ours) == hash(theirs)
    assert repr(ours) == repr(theirs).replace("TypingPoint", "Point")
    assert ours._asdict() == theirs._asdict()
    x, y, label = ours
    assert (x, y, label) == (ours.x, ours.y, ours.label) == (ours[0], ours[1], ours[2])


@pytest.mark.parametrize("args,kwargs", [((), {}), ((1, 2, "a", 4), {}), ((1,), {"x": 1}), ((1,), {"z": 1})])
def test_wrong_arguments_are_refused_as_typing_refuses_them(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        TypingPoint(*args, **kwargs)
    with pytest.raises(TypeError):
        Point(*args, **kwargs)


def test_the_named_tuple_helpers() -> None:
    ours, theirs = both(1, 2)
    assert ours._fields == theirs._fields == ("x", "y", "label")
    assert ours._field_defaults == theirs._field_defaults == {"y": 0, "label": None}
    assert tuple(ours._replace(y=7, label="z")) == tuple(theirs._replace(y=7, label="z")) == (1, 7, "z")
    assert type(ours._replace(y=7)) is Point
    with pytest.raises(TypeError):
        ours._replace(z=1)
    assert tuple(Point._make([4, 5, None])) == tuple(TypingPoint._make([4, 5, None]))
    assert pickle.loads(pickle.dumps(ours)) == ours and type(pickle.loads(pickle.dumps(ours))) is Point
    assert sorted([Point(2), Point(1, 5), Point(1, 2)]) == [(1, 2, None), (1, 5, None), (2, 0, None)]
    assert ours.total == 3 and Point.__doc__ == "A point."


def test_instances_hold_no_dict_and_fields_cannot_be_set() -> None:
    point = Point(1)
    assert not hasattr(point, "__dict__")
    with pytest.raises(AttributeError):
        point.x = 2  # type: ignore[misc]


def test_a_field_without_a_default_after_one_with_a_default_is_refused() -> None:
    with pytest.raises(TypeError, match="follows one with a default"):
        class Bad(NamedTuple):
            a: int = 0
            b: int  # type: ignore[misc]  # the mistake under test
