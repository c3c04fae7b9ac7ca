"""Plain value types for the short-lived ``engram`` processes, without ``dataclasses``.

``engram load`` and every hook run in a fresh interpreter, so class creation is paid on
each call: ``@dataclass`` imports ``inspect`` (with ``ast``, ``dis``, ``tokenize``) and
compiles generated methods for every class, a few ms per process before any work.
A ``Record`` subclass declares its fields as annotations, as a dataclass does; the
metaclass turns them into ``__slots__`` and the shared methods below read the field
tuple, so defining a class compiles nothing. Instances behave as
``@dataclass(frozen=True, slots=True)`` ones: positional or keyword construction with
defaults, field-wise ``==`` and ``hash``, a ``Name(field=value, ...)`` repr, and no
assignment after construction (``class X(Record, frozen=False)`` allows it).
"""

from __future__ import annotations

from collections.abc import Callable

# ``typing`` costs every process about 3 ms of CPU to import, and the load and hook
# paths need it only for annotations (strings here): mypy reads the imports below, the
# interpreter a stand-in decorator.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar, dataclass_transform

    T = TypeVar("T")
    R = TypeVar("R", bound="Record")
else:

    def dataclass_transform(**_: object) -> Callable[[type], type]:
        return lambda cls: cls


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A default made fresh for each instance (``dataclasses.field(default_factory=...)``)."""
    return _Factory(default_factory)  # type: ignore[return-value]


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class _RecordMeta(type):
    def __new__(
        mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], frozen: bool = True
    ) -> _RecordMeta:
        own = tuple(
            n
            for n, note in ns.get("__annotations__", {}).items()
            if not str(note).startswith(("ClassVar", "typing.ClassVar"))
        )
        defaults: dict[str, Any] = {}
        for base in reversed(bases):
            defaults.update(getattr(base, "__record_defaults__", {}))
        defaults.update({n: ns.pop(n) for n in own if n in ns})
        inherited: tuple[str, ...] = ()
        for base in bases:
            inherited += getattr(base, "__record_fields__", ())
        ns["__slots__"] = own
        ns["__record_fields__"] = inherited + own
        ns["__record_defaults__"] = defaults
        ns["__match_args__"] = inherited + own
        if not frozen:
            ns.setdefault("__setattr__", object.__setattr__)
            ns.setdefault("__delattr__", object.__delattr__)
            ns.setdefault("__hash__", None)  # mutable and compared by value: unhashable
        return super().__new__(mcls, name, bases, ns)

    def __init__(
        cls, name: str, bases: tuple[type, ...], ns: dict[str, Any], frozen: bool = True
    ) -> None:
        super().__init__(name, bases, ns)


class Record(metaclass=_RecordMeta):
    """Base of Engram's value types; see the module docstring."""

    __slots__ = ()
    __record_fields__: ClassVar[tuple[str, ...]]
    __record_defaults__: ClassVar[dict[str, Any]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        names = cls.__record_fields__
        if len(args) > len(names):
            raise TypeError(
                f"{cls.__name__}() takes {len(names)} positional arguments "
                f"but {len(args)} were given"
            )
        put = object.__setattr__
        for name, value in zip(names, args, strict=False):
            put(self, name, value)
        if len(args) < len(names) or kwargs:
            defaults = cls.__record_defaults__
            for name in names[len(args) :]:
                if name in kwargs:
                    value = kwargs.pop(name)
                elif name in defaults:
                    value = defaults[name]
                    if type(value) is _Factory:
                        value = value.make()
                else:
                    raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
                put(self, name, value)
            if kwargs:
                extra = next(iter(kwargs))
                raise TypeError(
                    f"{cls.__name__}() got an unexpected or repeated argument {extra!r}"
                )

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__record_fields__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_fields__)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    # ``copy`` and ``pickle`` restore slots through ``__setattr__``, which a frozen
    # record refuses.
    def __getstate__(self) -> tuple[Any, ...]:
        return self._values()

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.__record_fields__, state, strict=True):
            object.__setattr__(self, name, value)


def field_names(record: Record | type[Record]) -> tuple[str, ...]:
    return record.__record_fields__


def replace(record: R, **changes: Any) -> R:
    """A copy of ``record`` with ``changes`` (``dataclasses.replace``)."""
    values = {n: getattr(record, n) for n in record.__record_fields__}
    values.update(changes)
    return type(record)(**values)


def as_dict(record: Record) -> dict[str, Any]:
    """``dataclasses.asdict``: records become dicts, recursively through tuples, lists
    and dicts, which keep their own type."""
    return {n: _plain(getattr(record, n)) for n in record.__record_fields__}


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return as_dict(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return type(value)((_plain(k), _plain(v)) for k, v in value.items())
    return value
