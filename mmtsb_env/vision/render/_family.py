"""A render family: the content it accepts and how it draws. Each family module defines its
:class:`Family` object; :mod:`.families` lists them all in one table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from PIL import Image

from ._common import Check, Ctx, Obj


@dataclass(frozen=True)
class Family:
    """``draw(ctx) -> (image, facts)`` renders ``kind``; ``fields`` and ``required`` check its content,
    and ``check(ctx)`` (run by :func:`~mmtsb_env.vision.render.normalize`) raises ValueError for
    content the field checks alone cannot reject (it draws nothing)."""

    kind: str
    fields: dict[str, Check]
    draw: Callable[[Ctx], tuple[Image.Image, dict[str, Any]]]
    required: tuple[str, ...] = ()
    check: Callable[[Ctx], Any] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", dict(self.fields))
        object.__setattr__(self, "required", tuple(self.required))

    @property
    def description(self) -> str:
        """The first line of the draw function's docstring."""
        return (self.draw.__doc__ or "").strip().split("\n")[0]

    def validate(self, content: Any) -> dict[str, Any]:
        return Obj(self.fields, self.required)(content, "content")
