"""Draw a surface as a phone screenshot with Pillow (no browser): status bar, cards, buttons,
fields, chips, sliders, lists and images from the episode's image store.

Layout is two passes over the node tree: ``measure(node, max_width)`` gives a natural size,
``paint`` draws into the box its parent allocated. Everything a render needs lives in one
:class:`_Painter` per call, so renders on different threads never share mutable state, and the
same surface always gives the same pixels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from PIL import Image

from ..vision.canvas import Box, Canvas, TextMeasure
from .datamodel import display, resolve_bound
from ..vision.icons import draw_icon
from .state import Surface
from .theme import DEFAULT_THEME, TEXT_STYLES, Theme, mix
from .tree import Node, build_tree

IMAGE_REF = re.compile(r"^\s*(?:image_id:|image://)\s*(\d+)\s*$")
FILL_TYPES = ("Card", "Row", "Column", "List", "TextField", "DateTimeInput", "Slider", "MultipleChoice", "Divider")
RIGID_TYPES = ("Button", "Icon", "Image", "CheckBox")

_Ctx = tuple  # (text color or None, inside a button)


@dataclass
class Rendered:
    """A screenshot and where each component instance was drawn (logical pixels = image pixels)."""

    image: Image.Image
    boxes: dict[str, Box] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    tree: Node | None = None


def image_ref(url: Any) -> int | None:
    """The store id in ``"image_id:N"`` / ``"image://N"``, else None."""
    if isinstance(url, str):
        m = IMAGE_REF.match(url)
        if m:
            return int(m.group(1))
    return None


class _Painter:
    def __init__(self, surface: Surface, images: Any, theme: Theme, scale: int) -> None:
        self.s = surface
        self.images = images
        self.t = theme
        self.m = TextMeasure(scale)
        self.canvas: Canvas | None = None
        self.boxes: dict[str, Box] = {}
        self.warnings: list[str] = []
        self._memo: dict[tuple[int, float, _Ctx], tuple[float, float]] = {}
        self._loaded: dict[int, Image.Image | None] = {}

    # ------------------------------------------------------------------ values
    def val(self, node: Node, prop: str, default: Any = None) -> Any:
        return resolve_bound(node.props.get(prop), self.s.data, node.scope, default)

    def field_val(self, node: Node, prop: str, default: Any = None) -> Any:
        if node.id in self.s.local:
            return self.s.local[node.id]
        return self.val(node, prop, default)

    def text_of(self, node: Node, prop: str) -> str:
        return display(self.val(node, prop, ""))

    # ------------------------------------------------------------------ measuring
    def measure(self, node: Node, max_w: float, ctx: _Ctx = (None, False)) -> tuple[float, float]:
        key = (id(node), round(max_w, 2), ctx)
        size = self._memo.get(key)
        if size is None:
            size = getattr(self, f"_m_{node.type}")(node, max(1.0, max_w), ctx)
            self._memo[key] = size
        return size

    def _text_style(self, node: Node, ctx: _Ctx) -> tuple[str, float]:
        hint = node.props.get("usageHint", "body")
        style, size = TEXT_STYLES.get(hint, TEXT_STYLES["body"])
        if ctx[1] and hint == "body":
            style = "sans-bold"
        return style, size

    def _m_Text(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        style, size = self._text_style(node, ctx)
        lines = self.m.wrap(self.text_of(node, "text"), style, size, max_w)
        width = max((self.m.width(ln, style, size) for ln in lines), default=0)
        return min(max_w, width), len(lines) * self.m.line_height(size)

    def _image_size(self, node: Node, max_w: float) -> tuple[float, float]:
        hint = node.props.get("usageHint")
        fixed = {"icon": 28, "avatar": 48, "smallFeature": 96}
        if hint in fixed:
            side = min(max_w, fixed[hint])
            return side, side
        if hint == "header":
            return max_w, 160
        image = self._source(node)
        aspect = image.width / image.height if image is not None else 4 / 3
        width = min(max_w, 260) if hint == "mediumFeature" else max_w
        cap = {"mediumFeature": 200, "largeFeature": 320}.get(hint, 300)
        height = width / aspect
        if height > cap:
            height, width = cap, cap * aspect
        return round(width), round(height)

    def _m_Image(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        return self._image_size(node, max_w)

    def _m_Icon(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        side = 20 if ctx[1] else 24
        return side, side

    def _m_Divider(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        return (9, 24) if node.props.get("axis") == "vertical" else (max_w, 9)

    def _m_Card(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        pad = self.t.card_pad
        if not node.children:
            return max_w, 2 * pad
        w, h = self.measure(node.children[0], max_w - 2 * pad, ctx)
        return w + 2 * pad, h + 2 * pad

    def _m_Button(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        inner = (self.t.on_primary if node.props.get("primary") else self.t.primary, True)
        if not node.children:
            return min(max_w, 80), 42
        w, h = self.measure(node.children[0], max_w - 36, inner)
        return min(max_w, w + 36), max(42, h + 20)

    def _fills(self, node: Node, alignment: str | None) -> bool:
        if alignment == "stretch":
            return node.type not in ("Icon",)
        if node.type == "Text":
            return alignment in (None, "start")
        return node.type in FILL_TYPES and not (node.type == "Divider" and node.props.get("axis") == "vertical")

    def _column_gap(self, node: Node) -> float:
        """Text-only columns (a name over a price) sit tight; other columns breathe."""
        if node.children and all(c.type == "Text" for c in node.children):
            return 4
        return self.t.column_gap

    def _m_Column(self, node: Node, max_w: float, ctx: _Ctx, gap: float | None = None) -> tuple[float, float]:
        gap = self._column_gap(node) if gap is None else gap
        sizes = [self.measure(c, max_w, ctx) for c in node.children]
        if not sizes:
            return 0, 0
        return max(w for w, _ in sizes), sum(h for _, h in sizes) + gap * (len(sizes) - 1)

    def _row_widths(self, node: Node, max_w: float, ctx: _Ctx) -> list[float]:
        kids = node.children
        avail = max_w - self.t.row_gap * max(0, len(kids) - 1)
        nat = [self.measure(c, avail, ctx)[0] for c in kids]
        weights = [c.component.weight for c in kids]
        widths = list(nat)
        flexible = [i for i, c in enumerate(kids) if weights[i] is None and c.type not in RIGID_TYPES]
        rigid_total = sum(nat[i] for i, c in enumerate(kids) if weights[i] is None and i not in flexible)
        if any(w is not None for w in weights):
            total_w = sum(w for w in weights if w is not None)
            fixed = rigid_total + sum(nat[i] for i in flexible)
            rest = max(0.0, avail - fixed)
            if fixed > avail and flexible:
                room = max(0.0, avail - rigid_total - 40 * sum(1 for w in weights if w is not None))
                share = sum(nat[i] for i in flexible) or 1
                for i in flexible:
                    widths[i] = room * nat[i] / share
                rest = max(0.0, avail - rigid_total - room)
            for i, w in enumerate(weights):
                if w is not None:
                    widths[i] = rest * w / total_w
        elif sum(nat) > avail:
            room = max(0.0, avail - rigid_total)
            share = sum(nat[i] for i in flexible)
            if share > 0:
                for i in flexible:
                    widths[i] = room * nat[i] / share
            else:  # only rigid children: shrink them all
                widths = [avail * w / sum(nat) for w in nat]
        return widths

    def _m_Row(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        if not node.children:
            return 0, 0
        widths = self._row_widths(node, max_w, ctx)
        heights = [self.measure(c, w, ctx)[1] for c, w in zip(node.children, widths)]
        any_weight = any(c.component.weight is not None for c in node.children)
        total = sum(widths) + self.t.row_gap * (len(widths) - 1)
        return (max_w if any_weight else min(max_w, total)), max(heights)

    def _m_List(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        if node.props.get("direction") == "horizontal":
            return self._m_Row(node, max_w, ctx)
        return self._m_Column(node, max_w, ctx, gap=self.t.list_gap)

    def _field_label(self, node: Node) -> str:
        return self.text_of(node, "label")

    def _label_height(self, node: Node, max_w: float) -> float:
        label = self._field_label(node)
        if not label:
            return 0
        return len(self.m.wrap(label, "sans", 13, max_w)) * self.m.line_height(13) + 6

    def _m_TextField(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        box = 44
        if node.props.get("textFieldType") == "longText":
            text = display(self.field_val(node, "text", ""))
            lines = len(self.m.wrap(text, "sans", 15, max_w - 28)) if text else 1
            box = max(88, 24 + lines * self.m.line_height(15))
        return max_w, self._label_height(node, max_w) + box

    def _m_DateTimeInput(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        return max_w, self._label_height(node, max_w) + 44

    def _m_CheckBox(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        lines = self.m.wrap(self._field_label(node), "sans", 15, max(10.0, max_w - 34))
        width = 34 + max((self.m.width(ln, "sans", 15) for ln in lines), default=0)
        return min(max_w, width), max(24, len(lines) * self.m.line_height(15))

    def _m_Slider(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        return max_w, 22 + 26 + 16

    def _chips(self, node: Node, max_w: float) -> list[tuple[float, float, float, str, str, bool]]:
        """Chip layout: (x, y, width, label, value, selected) relative to the chip area."""
        selected = self.field_val(node, "selections", []) or []
        if not isinstance(selected, list):
            selected = [selected]
        selected = [display(v) for v in selected]
        out, x, y = [], 0.0, 0.0
        for opt in node.props.get("options", []):
            label = display(resolve_bound(opt.get("label"), self.s.data, node.scope, "")) or opt.get("value", "")
            on = opt.get("value") in selected
            w = min(max_w, self.m.width(label, "sans", 14) + 28 + (18 if on else 0))
            if x > 0 and x + w > max_w:
                x, y = 0.0, y + 34 + 8
            out.append((x, y, w, label, opt.get("value", ""), on))
            x += w + 8
        return out

    def _m_MultipleChoice(self, node: Node, max_w: float, ctx: _Ctx) -> tuple[float, float]:
        chips = self._chips(node, max_w)
        height = (chips[-1][1] + 34) if chips else 0
        return max_w, self._label_height(node, max_w) + height

    # ------------------------------------------------------------------ painting
    def paint(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx = (None, False)) -> None:
        if node.id not in self.boxes:
            self.boxes[node.id] = (x, y, x + w, y + h)
        getattr(self, f"_p_{node.type}")(node, x, y, w, h, ctx)

    def _p_Text(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c = self.canvas
        style, size = self._text_style(node, ctx)
        color = ctx[0] or (self.t.muted if node.props.get("usageHint") == "caption" else self.t.text)
        lh = self.m.line_height(size)
        for i, line in enumerate(self.m.wrap(self.text_of(node, "text"), style, size, w + 0.5)):
            c.text((x, y + i * lh), line, style, size, color)

    def _source(self, node: Node) -> Image.Image | None:
        key = id(node)
        if key in self._loaded:
            return self._loaded[key]
        image = None
        if isinstance(node.props.get("image_id"), int):
            ref = node.props["image_id"]
        else:
            url = self.val(node, "url", "")
            ref = image_ref(url)
            if ref is None and isinstance(url, str) and url.startswith("data:image/"):
                try:
                    from ..vision.store import from_data_url

                    image = from_data_url(url).convert("RGB")
                except Exception:
                    self.warnings.append(f"Image {node.id!r}: the data URL could not be decoded")
            elif ref is None:
                self.warnings.append(
                    f"Image {node.id!r}: cannot load {str(url)[:60]!r} (no network); use an IMAGE_URL_n placeholder "
                    "with image_placeholders, or image_id")
        if image is None and ref is not None:
            if self.images is not None and ref in self.images:
                image = self.images.get(ref)
            else:
                self.warnings.append(f"Image {node.id!r}: image {ref} does not exist in the image store")
        self._loaded[key] = image
        return image

    def _p_Image(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c = self.canvas
        image = self._source(node)
        hint = node.props.get("usageHint")
        radius = 0 if hint == "icon" else 10
        if image is None:
            c.rect((x, y, x + w, y + h), fill=(230, 232, 238), radius=radius)
            draw_icon(c, "photo", x + w / 2 - 14, y + h / 2 - 14, 28, self.t.faint)
            return
        fit = node.props.get("fit", "cover" if hint in ("avatar", "header", "smallFeature", "icon") else "contain")
        iw, ih = image.size
        if fit == "cover":
            scale = max(w / iw, h / ih)
            cw, ch = w / scale, h / scale
            left, top = (iw - cw) / 2, (ih - ch) / 2
            x0c, y0c = min(iw - 1, round(left)), min(ih - 1, round(top))
            image = image.crop((x0c, y0c, max(x0c + 1, round(left + cw)), max(y0c + 1, round(top + ch))))
            c.paste(image, (x, y, x + w, y + h), radius=radius, circle=hint == "avatar")
        elif fit == "fill":
            c.paste(image, (x, y, x + w, y + h), radius=radius, circle=hint == "avatar")
        else:  # contain / none / scale-down: keep the aspect inside the box
            scale = min(w / iw, h / ih)
            if fit in ("none", "scale-down"):
                scale = min(scale, 1.0)
            dw, dh = iw * scale, ih * scale
            ox, oy = x + (w - dw) / 2, y + (h - dh) / 2
            c.paste(image, (ox, oy, ox + dw, oy + dh), radius=radius, circle=hint == "avatar")

    def _p_Icon(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        side = min(w, h)
        draw_icon(self.canvas, self.text_of(node, "name") or "?", x + (w - side) / 2, y + (h - side) / 2, side,
                  ctx[0] or self.t.text)

    def _p_Divider(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        color = node.props.get("color")
        col = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5)) if color else self.t.divider
        th = float(node.props.get("thickness", 1))
        if node.props.get("axis") == "vertical":
            self.canvas.rect((x + w / 2 - th / 2, y, x + w / 2 + th / 2, y + h), fill=col)
        else:
            self.canvas.rect((x, y + h / 2 - th / 2, x + w, y + h / 2 + th / 2), fill=col)

    def _p_Card(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c, t = self.canvas, self.t
        c.rect((x, y + 2, x + w, y + h + 2), fill=t.shadow, radius=t.card_radius)
        c.rect((x, y, x + w, y + h), fill=t.card, outline=t.card_border, width=1, radius=t.card_radius)
        if node.children:
            pad = t.card_pad
            self.paint(node.children[0], x + pad, y + pad, w - 2 * pad, h - 2 * pad, ctx)

    def _p_Button(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c, t = self.canvas, self.t
        primary = bool(node.props.get("primary"))
        if primary:
            c.rect((x, y, x + w, y + h), fill=t.primary, radius=h / 2)
        else:
            c.rect((x, y, x + w, y + h), fill=t.card, outline=t.primary, width=1.5, radius=h / 2)
        if node.children:
            inner = (t.on_primary if primary else t.primary, True)
            cw, ch = self.measure(node.children[0], w - 36, inner)
            self.paint(node.children[0], x + (w - cw) / 2, y + (h - ch) / 2, cw, ch, inner)

    def _place(self, child: Node, alignment: str | None, x: float, w: float, ctx: _Ctx) -> tuple[float, float]:
        if self._fills(child, alignment):
            return x, w
        cw = min(w, self.measure(child, w, ctx)[0])
        if alignment == "center":
            return x + (w - cw) / 2, cw
        if alignment == "end":
            return x + w - cw, cw
        return x, cw

    @staticmethod
    def _spread(distribution: str | None, free: float, n: int, gap: float) -> tuple[float, float]:
        """(offset before the first child, gap between children) for a main-axis distribution."""
        if free <= 0 or n == 0:
            return 0.0, gap
        if distribution == "center":
            return free / 2, gap
        if distribution == "end":
            return free, gap
        if distribution == "spaceBetween" and n > 1:
            return 0.0, gap + free / (n - 1)
        if distribution == "spaceAround":
            return free / (2 * n), gap + free / n
        if distribution == "spaceEvenly":
            return free / (n + 1), gap + free / (n + 1)
        return 0.0, gap

    def _p_Column(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx, gap: float | None = None) -> None:
        gap = self._column_gap(node) if gap is None else gap
        alignment = node.props.get("alignment")
        placed = []
        for child in node.children:
            cx, cw = self._place(child, alignment, x, w, ctx)
            placed.append((child, cx, cw, self.measure(child, cw, ctx)[1]))
        used = sum(p[3] for p in placed) + gap * max(0, len(placed) - 1)
        offset, step = self._spread(node.props.get("distribution"), h - used, len(placed), gap)
        cy = y + offset
        for child, cx, cw, ch in placed:
            self.paint(child, cx, cy, cw, ch, ctx)
            cy += ch + step

    def _p_Row(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        kids = node.children
        if not kids:
            return
        widths = self._row_widths(node, w, ctx)
        used = sum(widths) + self.t.row_gap * (len(kids) - 1)
        offset, step = self._spread(node.props.get("distribution"), w - used, len(kids), self.t.row_gap)
        alignment = node.props.get("alignment", "center")
        cx = x + offset
        for child, cw in zip(kids, widths):
            ch = self.measure(child, cw, ctx)[1]
            if alignment == "stretch" or (child.type == "Divider" and child.props.get("axis") == "vertical"):
                cy, ch = y, h
            elif alignment == "start":
                cy = y
            elif alignment == "end":
                cy = y + h - ch
            else:
                cy = y + (h - ch) / 2
            self.paint(child, cx, cy, cw, ch, ctx)
            cx += cw + step

    def _p_List(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        if node.props.get("direction") == "horizontal":
            self._p_Row(node, x, y, w, h, ctx)
        else:
            self._p_Column(node, x, y, w, h, ctx, gap=self.t.list_gap)

    def _paint_label(self, node: Node, x: float, y: float, w: float) -> float:
        label = self._field_label(node)
        if not label:
            return y
        lh = self.m.line_height(13)
        lines = self.m.wrap(label, "sans", 13, w)
        for i, line in enumerate(lines):
            self.canvas.text((x, y + i * lh), line, "sans", 13, (75, 85, 99))
        return y + len(lines) * lh + 6

    def _field_box(self, x: float, y: float, w: float, h: float) -> None:
        self.canvas.rect((x, y, x + w, y + h), fill=self.t.field_fill, outline=self.t.field_border, width=1.5, radius=10)

    def _ellipsize(self, text: str, style: str, size: float, max_w: float) -> str:
        if self.m.width(text, style, size) <= max_w:
            return text
        while text and self.m.width(text + "…", style, size) > max_w:
            text = text[:-1]
        return text + "…"

    def _p_TextField(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c, t = self.canvas, self.t
        top = self._paint_label(node, x, y, w)
        box_h = y + h - top
        self._field_box(x, top, w, box_h)
        kind = node.props.get("textFieldType", "shortText")
        value = display(self.field_val(node, "text", ""))
        label = self._field_label(node)
        inner_w = w - 28 - (26 if kind == "date" else 0)
        if not value:
            hint = f"Enter {label.lower()}" if label else "Enter text"
            c.text((x + 14, top + (min(box_h, 44) - 19) / 2), self._ellipsize(hint, "sans", 15, inner_w), "sans", 15, t.faint)
        elif kind == "longText":
            lh = self.m.line_height(15)
            for i, line in enumerate(self.m.wrap(value, "sans", 15, inner_w)):
                c.text((x + 14, top + 12 + i * lh), line, "sans", 15, t.text)
        else:
            shown = "•" * len(value) if kind == "obscured" else value
            c.text((x + 14, top + (box_h - 19) / 2), self._ellipsize(shown, "sans", 15, inner_w), "sans", 15, t.text)
        if kind == "date":
            draw_icon(c, "calendar", x + w - 34, top + (box_h - 20) / 2, 20, t.muted)

    def _p_DateTimeInput(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c, t = self.canvas, self.t
        top = self._paint_label(node, x, y, w)
        self._field_box(x, top, w, 44)
        enable_date = node.props.get("enableDate", True)
        enable_time = node.props.get("enableTime", False)
        draw_icon(c, "calendar" if enable_date else "clock", x + 12, top + 12, 20, t.primary)
        raw = display(self.field_val(node, "value", ""))
        text, color = format_datetime_value(raw, enable_date, enable_time), t.text
        if not raw:
            text = "Select " + " and ".join(p for p, on in (("date", enable_date), ("time", enable_time)) if on) if (enable_date or enable_time) else "Select"
            color = t.faint
        c.text((x + 42, top + 12), self._ellipsize(text, "sans", 15, w - 56), "sans", 15, color)

    def _p_CheckBox(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c, t = self.canvas, self.t
        checked = bool(self.field_val(node, "value", False))
        by = y + (min(h, 24) - 22) / 2 + 1
        if checked:
            c.rect((x, by, x + 22, by + 22), fill=t.primary, radius=5)
            draw_icon(c, "check", x + 2, by + 2, 18, t.on_primary)
        else:
            c.rect((x, by, x + 22, by + 22), fill=t.field_fill, outline=t.faint, width=1.8, radius=5)
        lh = self.m.line_height(15)
        for i, line in enumerate(self.m.wrap(self._field_label(node), "sans", 15, max(10.0, w - 34))):
            c.text((x + 34, y + 2 + i * lh), line, "sans", 15, ctx[0] or t.text)

    def _p_Slider(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c, t = self.canvas, self.t
        lo = float(node.props.get("minValue", 0))
        hi = float(node.props.get("maxValue", 100))
        value = self.field_val(node, "value", lo)
        try:
            v = float(value)
        except (TypeError, ValueError):
            v = lo
        frac = 0.0 if hi <= lo else min(1.0, max(0.0, (v - lo) / (hi - lo)))
        label = self._field_label(node)
        if label:
            c.text((x, y), self._ellipsize(label, "sans", 13, w - 80), "sans", 13, (75, 85, 99))
        vtext = display(v if not float(v).is_integer() else int(v))
        c.text((x + w - self.m.width(vtext, "sans-bold", 15), y - 1), vtext, "sans-bold", 15, t.text)
        ty = y + 22 + 13
        knob = 10
        left, right = x + knob, x + w - knob
        c.rect((left, ty - 2, right, ty + 2), fill=t.track, radius=2)
        kx = left + frac * (right - left)
        c.rect((left, ty - 2, kx, ty + 2), fill=t.primary, radius=2)
        c.ellipse((kx - knob, ty - knob, kx + knob, ty + knob), fill=t.card, outline=t.primary, width=3)
        for text, tx in ((display(lo if not lo.is_integer() else int(lo)), x),
                         (display(hi if not hi.is_integer() else int(hi)), x + w - self.m.width(display(hi if not hi.is_integer() else int(hi)), "sans", 12))):
            c.text((tx, y + 22 + 27), text, "sans", 12, t.muted)

    def _p_MultipleChoice(self, node: Node, x: float, y: float, w: float, h: float, ctx: _Ctx) -> None:
        c, t = self.canvas, self.t
        top = self._paint_label(node, x, y, w)
        for cx, cy, cw, label, _value, on in self._chips(node, w):
            bx, by = x + cx, top + cy
            if on:
                c.rect((bx, by, bx + cw, by + 34), fill=t.primary_soft, outline=t.primary, width=1.5, radius=17)
                draw_icon(c, "check", bx + 10, by + 9, 16, t.primary)
                c.text((bx + 30, by + 8), self._ellipsize(label, "sans", 14, cw - 42), "sans", 14, t.primary)
            else:
                c.rect((bx, by, bx + cw, by + 34), fill=t.field_fill, outline=t.field_border, width=1.2, radius=17)
                c.text((bx + 14, by + 8), self._ellipsize(label, "sans", 14, cw - 28), "sans", 14, t.text)


def format_datetime_value(raw: str, enable_date: bool = True, enable_time: bool = False) -> str:
    """A friendly form of an ISO date/time value (``2026-04-18T19:30`` -> ``Sat, Apr 18, 2026 · 19:30``)."""
    if not raw:
        return ""
    text = raw.strip()
    try:
        if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", text):
            dt, has_date = datetime.fromisoformat("2000-01-01T" + text), False
        else:
            dt, has_date = datetime.fromisoformat(text.replace("Z", "+00:00")), True
    except ValueError:
        return text
    parts = []
    if enable_date and has_date:
        parts.append(dt.strftime("%a, %b %d, %Y").replace(" 0", " "))
    if enable_time or not has_date:
        parts.append(dt.strftime("%H:%M"))
    return " · ".join(parts) or text


def _status_bar(c: Canvas, t: Theme, clock: str) -> None:
    c.text((t.pad + 4, 9), clock, "sans-bold", 14, t.text)
    right = t.width - t.pad - 4
    # battery
    c.rect((right - 26, 11, right - 3, 23), outline=t.text, width=1.4, radius=3)
    c.rect((right - 3, 15, right - 1, 19), fill=t.text)
    c.rect((right - 24, 13, right - 9, 21), fill=t.text, radius=1.5)
    # wifi
    cx, cy = right - 44, 23
    for r in (12, 8):
        c.arc((cx - r, cy - r, cx + r, cy + r), 225, 315, t.text, 1.8)
    c.ellipse((cx - 2, cy - 4, cx + 2, cy), fill=t.text)
    # signal bars
    bx = right - 80
    for i in range(4):
        bh = 4 + 3 * i
        c.rect((bx + i * 5, 23 - bh, bx + i * 5 + 3, 23), fill=t.text, radius=1)


def render_surface(
    surface: Surface,
    images: Any = None,
    *,
    now: datetime | None = None,
    highlight: str | None = None,
    highlight_label: str = "CLICKED",
    theme: Theme = DEFAULT_THEME,
    scale: int = 2,
) -> Rendered:
    """Draw ``surface`` (which must have a root) and return the screenshot with component boxes.

    Args:
        surface: the surface to draw.
        images: the episode's image store (for Image components), or None.
        now: time shown in the status bar (default 09:41).
        highlight: instance id of a component to outline in red with ``highlight_label``.
        theme: colours and sizes; the surface's ``styles.primaryColor`` overrides the primary colour.
        scale: supersampling factor (2 gives smooth edges; 1 is faster).
    """
    theme = theme.with_primary(surface.styles.get("primaryColor"))
    tree, warnings = build_tree(surface.components, surface.root or "", surface.data)
    p = _Painter(surface, images, theme, scale)
    p.warnings.extend(warnings)
    content_w = theme.width - 2 * theme.pad
    root_w, root_h = p.measure(tree, content_w)
    top = theme.status_height + theme.top_gap
    full = top + root_h + theme.bottom + 12
    height = int(min(theme.max_height, max(theme.min_height, round(full))))
    canvas = Canvas(theme.width, height, theme.background, scale)
    p.canvas = canvas
    _status_bar(canvas, theme, (now.strftime("%H:%M") if now else "09:41"))
    fills = p._fills(tree, None)
    p.paint(tree, theme.pad, top, content_w if fills else root_w, root_h)
    if full > theme.max_height:
        p.warnings.append(f"the screen is {round(full)} px tall; only the first {theme.max_height} px are shown")
        canvas.rect((0, height - 40, theme.width, height), fill=mix(theme.background, theme.text, 0.08))
        note = "more content below (screen cut)"
        canvas.text(((theme.width - canvas.width(note, "sans", 13)) / 2, height - 31), note, "sans", 13, theme.muted)
    else:
        canvas.rect((theme.width / 2 - 60, height - 14, theme.width / 2 + 60, height - 9), fill=(190, 194, 202), radius=3)
    if highlight is not None and highlight in p.boxes:
        x0, y0, x1, y1 = p.boxes[highlight]
        canvas.rect((x0 - 4, y0 - 4, x1 + 4, y1 + 4), outline=theme.highlight, width=3, radius=8)
        tw = canvas.width(highlight_label, "sans-bold", 11)
        ty = y0 - 24 if y0 - 24 > theme.status_height else y1 + 6
        tx = min(max(x0 - 4, 2), theme.width - tw - 18)
        canvas.rect((tx, ty, tx + tw + 14, ty + 18), fill=theme.highlight, radius=9)
        canvas.text((tx + 7, ty + 2), highlight_label, "sans-bold", 11, (255, 255, 255))
    return Rendered(canvas.finish(), p.boxes, p.warnings, tree)
