"""Visual tools of the ``vision`` app: look at, crop, annotate, transform, plot and share images.

All of them read the episode's :class:`~mmtsb_env.vision.store.ImageStore` from
``world.services["images"]``. Stored images are never changed: a tool that makes an image adds
a new one and returns an :class:`ImageResult` with its id. A tool that transforms an image
derives the new one (:meth:`~mmtsb_env.vision.store.ImageStore.derive`): a deterministic
function of the source's pixels named by the tool and its pixel arguments, so the same crop of
the same image in a later episode reuses its products instead of redrawing it. The tools are device-local, so they
need no network or login. Box coordinates are normalised to 0-1000 on both axes.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageEnhance

from ..tools import Delivery, ImageResult, InvalidArgument, ToolError, tool
from ..world import define_table, format_datetime
from .plotting import MAX_PIXELS, MAX_SIDE, make_plot
from .store import ImageStore

APP = "vision"
SAVED = "vision.saved_images"
PICTURES_DIR = "/storage/Pictures"

define_table(
    SAVED,
    columns={"id": None, "image_id": None, "path": "", "width": 0, "height": 0, "saved_at": None},
    auto_columns=("saved_at",),
)


def image_store(world: Any) -> ImageStore:
    """The episode's image store, or a clear error if the episode has none."""
    store = getattr(world, "services", {}).get("images")
    if store is None:
        raise ToolError("this episode has no image store (world.services['images'] is not set); no images are available")
    return store


def _result(store: ImageStore, new_id: int, what: str) -> ImageResult:
    w, h = store.size(new_id)
    return ImageResult(image_id=new_id, description=f"{what} ({w}x{h})", extra={"width": w, "height": h})


def _box(left: int, upper: int, right: int, lower: int) -> None:
    for name, v in (("left", left), ("upper", upper), ("right", right), ("lower", lower)):
        if not 0 <= v <= 1000:
            raise InvalidArgument(f"parameter {name!r} must be between 0 and 1000 (normalised coordinates), got {v}")
    if left >= right:
        raise InvalidArgument(f"parameter 'right' ({right}) must be greater than 'left' ({left}); the box is empty or inverted")
    if upper >= lower:
        raise InvalidArgument(f"parameter 'lower' ({lower}) must be greater than 'upper' ({upper}); the box is empty or inverted")


def _pixels(size: tuple[int, int], left: int, upper: int, right: int, lower: int) -> tuple[int, int, int, int]:
    """Pixel box of a normalised box in an image of ``size``: edges rounded to the nearest pixel, never empty."""
    w, h = size
    x0, x1 = round(left * w / 1000), round(right * w / 1000)
    y0, y1 = round(upper * h / 1000), round(lower * h / 1000)
    if x1 <= x0:
        x0, x1 = min(x0, w - 1), min(x0, w - 1) + 1
    if y1 <= y0:
        y0, y1 = min(y0, h - 1), min(y0, h - 1) + 1
    return x0, y0, x1, y1


def _check_size(width: int, height: int, what: str = "the result") -> None:
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise InvalidArgument(
            f"{what} would be {width}x{height} pixels; the limit is {MAX_SIDE} px per side and {MAX_PIXELS // 1_000_000} MP"
        )


@tool(app=APP)
def view_image(world, image_id: int) -> ImageResult:
    """Look at an image: it is attached to this tool's result so you can see it.

    Args:
        image_id: id of the image (ids start at 0).
    """
    store = image_store(world)
    w, h = store.size(image_id)
    return ImageResult(image_id=image_id, description=f"image {image_id} ({w}x{h})", extra={"width": w, "height": h})


@tool(app=APP)
def get_image_size(world, image_id: int) -> dict:
    """The width and height of an image in pixels.

    Args:
        image_id: id of the image.
    """
    w, h = image_store(world).size(image_id)
    return {"image_id": image_id, "width": w, "height": h}


@tool(app=APP)
def crop_image(world, image_id: int, left: int, upper: int, right: int, lower: int) -> ImageResult:
    """Crop an image to a box and store the crop as a new image.

    Coordinates are normalised: 0 is the left/top edge and 1000 the right/bottom edge, whatever
    the image's pixel size.

    Args:
        image_id: id of the image to crop.
        left: left edge of the box, 0-1000.
        upper: top edge of the box, 0-1000.
        right: right edge of the box, 0-1000 (greater than left).
        lower: bottom edge of the box, 0-1000 (greater than upper).
    """
    store = image_store(world)
    size = store.size(image_id)
    _box(left, upper, right, lower)
    box = _pixels(size, left, upper, right, lower)
    what = f"crop of image {image_id} to box ({left}, {upper}, {right}, {lower})"
    new_id = store.derive(image_id, "crop", box, lambda image: image.crop(box),
                          size=(box[2] - box[0], box[3] - box[1]), note=what)
    return _result(store, new_id, what)


@tool(app=APP)
def draw_bbox(
    world, image_id: int, left: int, upper: int, right: int, lower: int, color: str = "red", width: int = 5
) -> ImageResult:
    """Draw a rectangle on a copy of an image (to point something out) and store the copy.

    Coordinates are normalised to 0-1000 like crop_image. The outline is drawn inside the box.

    Args:
        image_id: id of the image.
        left: left edge of the box, 0-1000.
        upper: top edge of the box, 0-1000.
        right: right edge of the box, 0-1000 (greater than left).
        lower: bottom edge of the box, 0-1000 (greater than upper).
        color: outline colour: a name such as "red" or "#00ff00".
        width: outline thickness in pixels (1-100).
    """
    store = image_store(world)
    size = store.size(image_id)
    _box(left, upper, right, lower)
    try:
        rgb = ImageColor.getrgb(color)[:3]
    except (ValueError, AttributeError, TypeError):
        raise InvalidArgument(f"parameter 'color' is not a colour: {color!r} (use a name such as 'red' or a hex code like '#ff0000')") from None
    if not 1 <= width <= 100:
        raise InvalidArgument(f"parameter 'width' must be between 1 and 100 pixels, got {width}")
    x0, y0, x1, y1 = _pixels(size, left, upper, right, lower)

    def draw(image: Image.Image) -> Image.Image:
        out = image.copy()
        ImageDraw.Draw(out).rectangle((x0, y0, x1 - 1, y1 - 1), outline=rgb, width=width)
        return out

    what = f"image {image_id} with a {color} box at ({left}, {upper}, {right}, {lower})"
    return _result(store, store.derive(image_id, "bbox", (x0, y0, x1, y1, rgb, width), draw, size=size, note=what), what)


@tool(app=APP)
def resize_image(world, image_id: int, width: int, height: int) -> ImageResult:
    """Resize an image to exactly width x height pixels (aspect ratio is not kept) as a new image.

    Args:
        image_id: id of the image.
        width: new width in pixels (1-4096).
        height: new height in pixels (1-4096).
    """
    store = image_store(world)
    store.size(image_id)  # the id is checked first
    for name, v in (("width", width), ("height", height)):
        if not 1 <= v <= MAX_SIDE:
            raise InvalidArgument(f"parameter {name!r} must be between 1 and {MAX_SIDE} pixels, got {v}")
    _check_size(width, height)
    new_id = store.derive(image_id, "resize", (width, height),
                          lambda image: image.resize((width, height), Image.Resampling.LANCZOS),
                          size=(width, height), note=f"image {image_id} resized")
    return _result(store, new_id, f"image {image_id} resized")


@tool(app=APP)
def rotate_image(world, image_id: int, angle: float, expand: bool = False) -> ImageResult:
    """Rotate an image counter-clockwise by an angle in degrees, as a new image.

    Args:
        image_id: id of the image.
        angle: degrees, counter-clockwise (negative turns clockwise).
        expand: if true, enlarge the canvas to hold the whole rotated image; if false keep the size and clip the corners.
    """
    store = image_store(world)
    w, h = store.size(image_id)
    if not math.isfinite(angle):
        raise InvalidArgument(f"parameter 'angle' must be a finite number of degrees, got {angle!r}")
    turn = angle % 360.0
    quarter = {0.0: None, 90.0: Image.Transpose.ROTATE_90, 180.0: Image.Transpose.ROTATE_180,
               270.0: Image.Transpose.ROTATE_270}
    size: tuple[int, int] | None = (w, h)
    if turn in quarter and (expand or turn in (0.0, 180.0) or w == h):
        move = quarter[turn]
        size = (h, w) if turn in (90.0, 270.0) else (w, h)

        def draw(image: Image.Image) -> Image.Image:
            return image.copy() if move is None else image.transpose(move)  # exact, no resampling
    else:
        if expand:
            rad = math.radians(turn)
            nw = math.ceil(abs(w * math.cos(rad)) + abs(h * math.sin(rad)) - 1e-6)
            nh = math.ceil(abs(w * math.sin(rad)) + abs(h * math.cos(rad)) - 1e-6)
            _check_size(nw, nh, "the rotated image")
            size = None  # PIL's expanded canvas: known once drawn

        def draw(image: Image.Image) -> Image.Image:
            return image.rotate(turn, Image.Resampling.BICUBIC, expand=expand, fillcolor=(0, 0, 0))
    what = f"image {image_id} rotated {angle:g} degrees counter-clockwise"
    return _result(store, store.derive(image_id, "rotate", (turn, bool(expand)), draw, size=size, note=what), what)


@tool(app=APP)
def enhance_image(world, image_id: int, factor: float) -> ImageResult:
    """Change the contrast of an image, as a new image.

    Args:
        image_id: id of the image.
        factor: 1.0 keeps the image, above 1 raises contrast (e.g. 1.5), below 1 lowers it (0 is flat grey). At most 10.
    """
    store = image_store(world)
    size = store.size(image_id)
    if not math.isfinite(factor) or not 0.0 <= factor <= 10.0:
        raise InvalidArgument(f"parameter 'factor' must be between 0 and 10, got {factor!r}")
    what = f"image {image_id} with contrast x{factor:g}"
    new_id = store.derive(image_id, "contrast", (float(factor),),
                          lambda image: ImageEnhance.Contrast(image).enhance(factor), size=size, note=what)
    return _result(store, new_id, what)


@tool(app=APP, writes=True)
def save_image(world, image_id: int) -> dict:
    """Save an image as a PNG file in the device's Pictures folder and return its path.

    Saving the same image again returns the existing path.

    Args:
        image_id: id of the image.
    """
    w, h = image_store(world).size(image_id)
    existing = world.first(SAVED, image_id=image_id)
    if existing is not None:
        return {"image_id": image_id, "path": existing["path"], "already_saved": True}
    path = f"{PICTURES_DIR}/image_{image_id}.png"
    world.insert(SAVED, {"id": world.new_id(SAVED), "image_id": image_id, "path": path, "width": w, "height": h,
                         "saved_at": format_datetime(world.now)})
    return {"image_id": image_id, "path": path, "width": w, "height": h}


@tool(app=APP)
def show_image_to_user(world, image_id: int, message: str = "Here is the image") -> Delivery:
    """Send an image to the user, with a message.

    Args:
        image_id: id of the image to show.
        message: text sent along with the image.
    """
    image_store(world).size(image_id)  # the image exists
    text = message if message.strip() else "Here is the image"
    return Delivery(text=text, image_ids=(image_id,))


@tool(app=APP)
def plot(
    world,
    type: str,
    title: str = "",
    x: list[float] | None = None,
    y: list[float] | None = None,
    categories: list[str] | None = None,
    data: list[float] | None = None,
    heights: list[float] | None = None,
    groups: dict | None = None,
    sizes: list[float] | None = None,
    labels: list[str] | None = None,
    matrix: dict | None = None,
    xlabel: str = "",
    ylabel: str = "",
    color: str | None = None,
    marker: str = "",
    line_style: str = "solid",
    linewidth: float = 1.5,
    point_size: float = 50.0,
    num_bins: int = 10,
    bar_label_rotation: float = 0.0,
    show_means: bool = False,
    explode: list[float] | None = None,
    start_angle: float = 0.0,
    color_map: str = "viridis",
    show_colorbar: bool = True,
    figsize: list[float] | None = None,
    grid: bool = False,
    xlim: list[float] | None = None,
    ylim: list[float] | None = None,
    dpi: int = 100,
) -> ImageResult:
    """Draw a chart and store it as a new image.

    Types and the data each needs: "line" (y, optional x; or groups {name: ys} for several lines),
    "bar" (heights with categories; or groups {series: heights} for grouped bars), "scatter"
    (x and y, optional sizes and point labels), "histogram" (data, num_bins), "boxplot" (data,
    or groups {name: values}), "pie" (sizes with labels, optional explode), "heatmap"
    (matrix {"values": [[...]], "row_labels": [...], "col_labels": [...]}).

    Args:
        type: line, bar, scatter, histogram, boxplot, pie or heatmap.
        title: chart title.
        x: x values (line, scatter).
        y: y values (line, scatter).
        categories: bar names (bar).
        data: values (histogram, boxplot; pie slice sizes also accepted).
        heights: bar heights (bar).
        groups: named series {name: [numbers]} (line, bar, histogram, boxplot).
        sizes: pie slice sizes, or per-point marker sizes (scatter).
        labels: pie slice names, scatter point labels, or the legend name of a single line/box.
        matrix: heatmap data {"values": rows, "row_labels": [...], "col_labels": [...]}.
        xlabel: x-axis label.
        ylabel: y-axis label.
        color: one colour for the data (name or hex).
        marker: point marker such as "o", "s", "^" (line, scatter).
        line_style: solid, dashed, dotted or dashdot (line).
        linewidth: line width in points.
        point_size: marker area for scatter points.
        num_bins: number of histogram bins.
        bar_label_rotation: rotation in degrees of bar (and heatmap column) labels.
        show_means: mark the mean on box plots.
        explode: per-slice offsets for pie charts (fractions of the radius).
        start_angle: angle of the first pie slice, degrees counter-clockwise from the x axis.
        color_map: matplotlib colour map for heatmaps (viridis, plasma, coolwarm, ...).
        show_colorbar: show a colour bar beside heatmaps.
        figsize: [width, height] in inches (default [6.4, 4.8]).
        grid: draw grid lines.
        xlim: [min, max] of the x axis.
        ylim: [min, max] of the y axis.
        dpi: pixels per inch (the image is figsize x dpi pixels).
    """
    store = image_store(world)
    image, desc = make_plot(
        type=type, title=title, x=x, y=y, categories=categories, data=data, heights=heights, groups=groups,
        sizes=sizes, labels=labels, matrix=matrix, xlabel=xlabel, ylabel=ylabel, color=color, marker=marker,
        line_style=line_style, linewidth=linewidth, point_size=point_size, num_bins=num_bins,
        bar_label_rotation=bar_label_rotation, show_means=show_means, explode=explode, start_angle=start_angle,
        color_map=color_map, show_colorbar=show_colorbar, figsize=figsize, grid=grid, xlim=xlim, ylim=ylim, dpi=dpi,
    )
    what = desc + (f" titled {title!r}" if title else "")
    return _result(store, store.add(image, source="tool", note=what), what)
