"""Colours, sizes and fonts of the rendered phone screen (immutable)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..vision.canvas import Color


def hex_color(value: str) -> Color:
    """``"#3B5BDB"`` -> ``(59, 91, 219)``."""
    v = value.lstrip("#")
    return (int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16))


def mix(a: Color, b: Color, t: float) -> Color:
    """``a`` blended toward ``b`` by ``t`` (0 = a, 1 = b)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


@dataclass(frozen=True)
class Theme:
    width: int = 600
    min_height: int = 420
    max_height: int = 2400
    status_height: int = 34
    pad: int = 18  # screen side padding
    top_gap: int = 10
    bottom: int = 30  # space for the home indicator
    column_gap: int = 12
    row_gap: int = 10
    list_gap: int = 10
    card_pad: int = 16
    card_radius: int = 14
    background: Color = (243, 244, 248)
    card: Color = (255, 255, 255)
    card_border: Color = (228, 231, 237)
    shadow: Color = (222, 225, 232)
    text: Color = (31, 35, 48)
    muted: Color = (107, 114, 128)
    faint: Color = (156, 163, 175)
    field_border: Color = (203, 208, 217)
    field_fill: Color = (255, 255, 255)
    divider: Color = (226, 229, 234)
    track: Color = (217, 220, 227)
    primary: Color = (59, 91, 219)
    on_primary: Color = (255, 255, 255)
    highlight: Color = (229, 57, 53)

    def with_primary(self, color: str | None) -> "Theme":
        return replace(self, primary=hex_color(color)) if color else self

    @property
    def primary_soft(self) -> Color:
        return mix(self.primary, (255, 255, 255), 0.86)


DEFAULT_THEME = Theme()

# usageHint -> (font style, size in logical px)
TEXT_STYLES = {
    "h1": ("sans-bold", 26), "h2": ("sans-bold", 22), "h3": ("sans-bold", 19), "h4": ("sans-bold", 17),
    "h5": ("sans-bold", 15), "body": ("sans", 15), "caption": ("sans", 13),
}
