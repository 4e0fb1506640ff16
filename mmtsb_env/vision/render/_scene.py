"""Photographing a flat picture: a document or sign placed *in* a scene, as a phone camera sees it.

:func:`photograph` puts a flat image (a receipt, a poster, a note...) on a surface among clutter,
views it in perspective and adds what real photos add: uneven lighting, a cast shadow, glare,
defocus blur, sensor noise and JPEG artefacts. How strong each is depends on the level
(:data:`LEVELS`, indexed by the spec's difficulty). Every random choice comes from a generator
named for its purpose, so the layout (and the ``doc_box`` fact) is the same in the draft pass,
which skips the pixel work.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, replace
from typing import Iterator

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from ._common import Ctx, drafting, four_channels, grey_noise, jpeg, jpeg_array, sensor_noise, texture_array, warp


@dataclass(frozen=True)
class Level:
    fill: float  # share of the frame's shorter side the picture spans
    tilt: float  # perspective strength (corner pull, share of the picture size)
    turn: float  # max in-plane rotation, degrees
    light: float  # darkest share of the lighting falloff (0 = even light)
    shadow: float  # opacity of a cast shadow over the picture (0 = none)
    glare: float  # peak brightness added by a specular highlight (0 = none)
    blur: float  # defocus blur radius, px
    noise: float  # sensor noise sigma
    quality: int  # JPEG quality (0: no JPEG round trip)
    clutter: int  # objects around the picture


LEVELS = {
    # hard levels are mostly *small*: detail a 2x zoom of the document brings back (blur and JPEG stay mild)
    0: Level(0.92, 0.015, 1.0, 0.08, 0.0, 0.0, 0.0, 2.0, 92, 2),
    1: Level(0.8, 0.05, 3.0, 0.2, 0.18, 0.0, 0.3, 3.0, 85, 4),
    2: Level(0.62, 0.08, 5.0, 0.28, 0.25, 45.0, 0.45, 4.0, 75, 6),
    3: Level(0.38, 0.11, 7.0, 0.34, 0.3, 60.0, 0.6, 5.0, 68, 8),
}
FRAME = 1024  # the longer side of every photo
# the camera of the photos of text (note_photo, receipt_photo): the levels' own, but level 0 without
# the sensor noise (sigma 2) and the JPEG round trip (quality 92): neither shows at that strength, and
# together they were about a third of level 0's cost (``photograph``'s ``look``)
TEXT_LOOKS = {**LEVELS, 0: replace(LEVELS[0], noise=0.0, quality=0)}


def frame_size(doc_size: tuple[int, int]) -> tuple[int, int]:
    """Portrait frames for tall pictures, landscape for wide ones (longer side :data:`FRAME`)."""
    w, h = doc_size
    return (FRAME * 3 // 4, FRAME) if h > w else (FRAME, FRAME * 3 // 4)


def placement(ctx: Ctx, doc_size: tuple[int, int], frame: tuple[int, int], closer: float = 1.0) -> list[tuple[float, float]]:
    """The four corners (tl, tr, br, bl) of the picture in the photo: scaled (``closer`` > 1
    brings the camera nearer than the level's default), turned, tilted."""
    lv = LEVELS[ctx.difficulty]
    r = ctx.rng("scene:placement")
    W, H = frame
    w, h = doc_size
    fill = min(0.92, lv.fill * closer)
    k = min(W * fill / w, H * fill / h)
    sw, sh = w * k, h * k
    cx = W / 2 + r.uniform(-1, 1) * (W - sw) * 0.3
    cy = H / 2 + r.uniform(-1, 1) * (H - sh) * 0.3
    a = math.radians(r.uniform(-lv.turn, lv.turn))
    corners = []
    for ux, uy in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
        x, y = ux * sw, uy * sh
        corners.append([cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)])
    # perspective: the far edge (one side, chosen at random) shrinks towards its middle
    side = r.randrange(4)
    pull = lv.tilt * r.uniform(0.6, 1.0)
    i, j = side, (side + 1) % 4
    (x0, y0), (x1, y1) = corners[i], corners[j]
    corners[i] = [x0 + (x1 - x0) * pull, y0 + (y1 - y0) * pull]
    corners[j] = [x1 + (x0 - x1) * pull, y1 + (y0 - y1) * pull]
    for c in corners:  # a little jitter, kept inside the frame
        c[0] = min(W - 2, max(2, c[0] + r.uniform(-1, 1) * lv.tilt * sw * 0.15))
        c[1] = min(H - 2, max(2, c[1] + r.uniform(-1, 1) * lv.tilt * sh * 0.15))
    return [(float(x), float(y)) for x, y in corners]


def bbox(quad: list[tuple[float, float]]) -> list[int]:
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    return [int(math.floor(min(xs))), int(math.floor(min(ys))), int(math.ceil(max(xs))), int(math.ceil(max(ys)))]


# ---------------------------------------------------------------------------- drawing on arrays


@contextlib.contextmanager
def drawing_on(arr: np.ndarray, box, mode: str | None = "RGBA") -> Iterator[tuple[ImageDraw.ImageDraw, int, int]]:
    """Pillow drawing on the crop ``box`` (left, top, right, bottom; clipped to the frame) of ``arr``
    (RGB, in place): yields (an ``ImageDraw`` of ``mode``: by default one blending RGBA fills; the
    crop's left; its top) and
    writes the crop back after the block. Coordinates are the caller's, less the crop's origin:
    the frame never goes through Pillow as a whole. The origin is at even coordinates: Pillow
    rounds some halves to even, and an odd shift moved an edge here and there by a pixel; with
    even ones the pixels are those of drawing on the whole frame."""
    H, W = arr.shape[:2]
    x0, y0 = min(W, max(0, int(math.floor(box[0])) // 2 * 2)), min(H, max(0, int(math.floor(box[1])) // 2 * 2))
    x1, y1 = max(x0, min(W, int(math.ceil(box[2])) + 1)), max(y0, min(H, int(math.ceil(box[3])) + 1))
    if x1 == x0 or y1 == y0:  # wholly outside the frame: drawn on nothing
        yield ImageDraw.Draw(Image.new("RGB", (1, 1)), mode), x0, y0
        return
    crop = Image.fromarray(arr[y0:y1, x0:x1])
    yield ImageDraw.Draw(crop, mode), x0, y0
    arr[y0:y1, x0:x1] = np.asarray(crop)


# ---------------------------------------------------------------------------- clutter

CLUTTER_COLORS = [(205, 60, 50), (40, 90, 170), (235, 190, 60), (60, 140, 80), (230, 230, 225), (50, 50, 55),
                  (150, 90, 160), (240, 130, 40)]


def _clutter(arr: np.ndarray, ctx: Ctx, n: int, keep_out: list[int]) -> None:
    """Mugs, pens, coins, phones and leaves on the surface (``arr``, RGB, in place; drawn before the
    picture, so never over it). Each object is drawn by Pillow on a crop of its own extent
    (:func:`drawing_on`)."""
    r = ctx.rng("scene:clutter")
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = keep_out
    for _ in range(n):
        for _try in range(12):  # prefer spots beside the picture, where the object stays visible
            cx, cy = r.uniform(0, W), r.uniform(0, H)
            if not (x0 + 30 < cx < x1 - 30 and y0 + 30 < cy < y1 - 30):
                break
        col = r.choice(CLUTTER_COLORS)
        what = r.randrange(5)
        s = r.uniform(40, 110)
        shapes = _clutter_shapes(r, what, cx, cy, s, col)
        pad = 2 + max(kw.get("width", 0) for _, _, kw in shapes)
        xs = [x for _, pts, _ in shapes for x in pts[0::2]]
        ys = [y for _, pts, _ in shapes for y in pts[1::2]]
        with drawing_on(arr, (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)) as (d, ox, oy):
            for method, pts, kw in shapes:
                shifted = [v - (ox if i % 2 == 0 else oy) for i, v in enumerate(pts)]
                if method == "polygon":
                    d.polygon(list(zip(shifted[0::2], shifted[1::2])), **kw)
                else:
                    getattr(d, method)(shifted, **kw)


def _clutter_shapes(r, what: int, cx: float, cy: float, s: float, col: tuple) -> list[tuple[str, list[float], dict]]:
    """One clutter object as Pillow drawing calls: (method, flat x, y coordinates, options)."""
    if what == 0:  # mug from above: rim, coffee, handle
        return [("ellipse", [cx + s * 0.7, cy - s * 0.25, cx + s * 1.15, cy + s * 0.25], {"outline": col, "width": int(s * 0.14)}),
                ("ellipse", [cx - s, cy - s, cx + s, cy + s], {"fill": col}),
                ("ellipse", [cx - s * 0.78, cy - s * 0.78, cx + s * 0.78, cy + s * 0.78], {"fill": (92, 58, 35)})]
    if what == 1:  # pen
        a = r.uniform(0, math.pi)
        dx, dy = math.cos(a) * s * 1.6, math.sin(a) * s * 1.6
        return [("line", [cx - dx, cy - dy, cx + dx, cy + dy], {"fill": col, "width": int(10 + s * 0.06)}),
                ("line", [cx + dx, cy + dy, cx + dx * 1.08, cy + dy * 1.08], {"fill": (40, 40, 40), "width": 6})]
    if what == 2:  # coins
        coins = []
        for _k in range(r.randint(2, 4)):
            ox, oy, cr = cx + r.uniform(-s, s), cy + r.uniform(-s, s), r.uniform(14, 24)
            coins.append(("ellipse", [ox - cr, oy - cr, ox + cr, oy + cr], {"fill": (190, 160, 90), "outline": (140, 110, 60), "width": 2}))
        return coins
    if what == 3:  # phone face down
        a = r.uniform(-0.5, 0.5)
        pts = [(-0.45, -0.9), (0.45, -0.9), (0.45, 0.9), (-0.45, 0.9)]
        return [("polygon", [v for u, w in pts for v in (cx + (u * math.cos(a) - w * math.sin(a)) * s,
                                                            cy + (u * math.sin(a) + w * math.cos(a)) * s)],
                 {"fill": (35, 35, 40, 255)})]
    return [("ellipse", [cx - s, cy - s * 0.4, cx + s, cy + s * 0.4], {"fill": col + (230,)})]  # leaf / sticky note shape


# ---------------------------------------------------------------------------- photo effects


def _lighting(size: tuple[int, int], ctx: Ctx, depth: float) -> np.ndarray:
    """A smooth light falloff from a random bright point: 255 there, 255*(1-depth) far away."""
    r = ctx.rng("scene:light")
    W, H = size
    gw, gh = 64, 48
    lx, ly = r.uniform(0, gw), r.uniform(0, gh)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    dist = np.sqrt((xs - lx) ** 2 + (ys - ly) ** 2) / math.hypot(gw, gh)
    light = 255.0 * (1.0 - depth * np.clip(dist * 1.4, 0, 1))
    return _up(light.astype(np.uint8), (W, H))


def _up(small: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A small grey map brought to ``size`` bilinearly (OpenCV), as uint8 (h, w)."""
    return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)


SPOT = 8  # the cast shadow and the glare are drawn at 1/SPOT of the frame's size and brought up


def _spot(size: tuple[int, int]) -> Image.Image:
    """The blank small map (``L``) a cast shadow or a glare is drawn on: 1/:data:`SPOT` of ``size``."""
    return Image.new("L", (-(-size[0] // SPOT), -(-size[1] // SPOT)), 0)


def _up_part(small: np.ndarray, size: tuple[int, int]) -> tuple[int, int, np.ndarray]:
    """The part of ``small`` (a map of :func:`_spot`) that is not zero, brought up :data:`SPOT`
    times (bilinear, OpenCV) within a frame of ``size``: (left, top, map of that part). Only the
    part and one zero pixel around it are resized: at a whole-pixel offset and the same scale the
    bilinear samples are those of bringing up the whole map (the zero pixel stands in for the zeros
    beyond), for a fraction of the cost -- a shadow covers a corner, a glare a blob."""
    x, y, w, h = cv2.boundingRect(small)
    if not w:
        return 0, 0, np.zeros((0, 0), np.uint8)
    x0, y0 = max(0, x - 1), max(0, y - 1)
    x1, y1 = min(small.shape[1], x + w + 1), min(small.shape[0], y + h + 1)
    part = cv2.resize(small[y0:y1, x0:x1], ((x1 - x0) * SPOT, (y1 - y0) * SPOT), interpolation=cv2.INTER_LINEAR)
    part = part[:size[1] - y0 * SPOT, :size[0] - x0 * SPOT]  # within the frame
    px, py, pw, ph = cv2.boundingRect(part)
    return x0 * SPOT + px, y0 * SPOT + py, part[py:py + ph, px:px + pw]


def _cast_shadow(ctx: Ctx, size: tuple[int, int], quad: list[tuple[float, float]],
                 strength: float) -> tuple[int, int, np.ndarray]:
    """The soft shadow of something off-frame (a hand, the phone) falling over one corner of the
    picture, as how much light it takes away over its own region: (left, top, map)."""
    r = ctx.rng("scene:shadow")
    W, H = size
    mask = _spot(size)
    corner = quad[r.randrange(4)]
    cx, cy = corner[0] / SPOT, corner[1] / SPOT
    rad = r.uniform(0.25, 0.4) * min(W, H) / SPOT
    ImageDraw.Draw(mask).ellipse((cx - rad * 1.6, cy - rad, cx + rad * 1.6, cy + rad), fill=int(255 * strength))
    return _up_part(np.asarray(mask.filter(ImageFilter.GaussianBlur(rad / 3))), size)


def _glare(ctx: Ctx, size: tuple[int, int], quad: list[tuple[float, float]], peak: float) -> tuple[int, int, np.ndarray]:
    """A specular highlight: a soft bright blob on the picture's surface, as a grey image to add
    over its own region: (left, top, map)."""
    r = ctx.rng("scene:glare")
    W, H = size
    x0, y0, x1, y1 = bbox(quad)
    cx, cy = r.uniform(x0, x1) / SPOT, r.uniform(y0, y1) / SPOT
    rad = r.uniform(0.08, 0.14) * min(W, H) / SPOT
    mask = _spot(size)
    ImageDraw.Draw(mask).ellipse((cx - rad * 1.5, cy - rad, cx + rad * 1.5, cy + rad), fill=int(min(255, peak)))
    return _up_part(np.asarray(mask.filter(ImageFilter.GaussianBlur(rad / 2.5))), size)


def photograph(doc: Image.Image | np.ndarray, ctx: Ctx, surface_kind: str = "wood", base=None,
               closer: float = 1.0, rim: int = 0, look: Level | None = None,
               lying: bool = True) -> tuple[Image.Image, dict]:
    """``doc`` (an image, or an RGB array) photographed on ``surface_kind``: (the photo, facts about
    where the picture is).

    The facts are ``doc_box`` ([left, top, right, bottom] of the picture in the photo; a crop there
    reads it best) and ``frame`` ([width, height]). From level 1 some photos are taken with the
    phone held sideways or upside down (:func:`turn_of`): the whole photo is turned by
    ``rotation`` degrees counter-clockwise (so ``rotate_image(-rotation, expand=True)`` sets it
    upright, exactly: quarter turns move pixels, they do not resample), ``doc_box`` and ``frame``
    describe the photo as delivered and ``upright_box`` the picture in the photo turned back.

    With ``rim`` the picture is placed as if it had a border of that many pixels around it (the
    layout and facts of photographing it on such a border): the border is the scene's own surface
    (clutter may lie on it), and the shadow, defocus and JPEG follow the picture itself
    (:func:`inset`). ``look`` is the
    camera's work when a family's differs from the level's (:func:`camera`); the layout, and so
    the facts, always follow :data:`LEVELS`. ``lying=False`` is a picture on a wall: no mugs, pens
    or coins around it (the level's clutter lies on a table).
    """
    lv = LEVELS[ctx.difficulty]
    size = (doc.shape[1], doc.shape[0]) if isinstance(doc, np.ndarray) else doc.size
    size = (size[0] + 2 * rim, size[1] + 2 * rim)
    frame = frame_size(size)
    quad = placement(ctx, size, frame, closer)
    box = bbox(quad)
    turn = turn_of(ctx)
    facts = {"doc_box": turned_box(box, frame, turn), "frame": list(frame[::-1] if turn in (90, 270) else frame)}
    if turn:
        facts.update(rotation=turn, upright_box=box)
    if drafting():
        return Image.new("RGB", tuple(facts["frame"]), (128, 128, 128)), facts
    W, H = frame
    if rim:
        quad = inset(quad, size, rim)
        box = bbox(quad)
    arr = texture_array(surface_kind, frame, ctx.np_rng("scene:surface"), base)
    if lying:
        _clutter(arr, ctx, lv.clutter, box)
    _contact_shadow(arr, quad, box)
    # the picture, warped onto the photo in place (OpenCV: only pixels inside the quad are written)
    x0, y0 = max(0, box[0] - 1), max(0, box[1] - 1)
    x1, y1 = min(W, box[2] + 1), min(H, box[3] + 1)
    src = _shrunk(doc if isinstance(doc, np.ndarray) or doc.mode == "RGB" else doc.convert("RGB"), quad)
    h, w = src.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([(0, 0), (w, 0), (w, h), (0, h)]),
                                         np.float32([(x - x0, y - y0) for x, y in quad]))
    warp(src, matrix, (x1 - x0, y1 - y0), onto=arr[y0:y1, x0:x1])
    return camera(arr, ctx, quad, focus=box, turn=turn, coded=box, look=look, tiled_noise=True), facts


def inset(quad: list[tuple[float, float]], size: tuple[int, int], rim: int) -> list[tuple[float, float]]:
    """The corners of the part of a picture of ``size`` (w, h) placed at ``quad`` that lies ``rim``
    pixels inside its edges: the same perspective map, applied to the inner rectangle."""
    w, h = size
    matrix = cv2.getPerspectiveTransform(np.float32([(0, 0), (w, 0), (w, h), (0, h)]), np.float32(quad))
    inner = np.float32([[(rim, rim), (w - rim, rim), (w - rim, h - rim), (rim, h - rim)]])
    return [(float(x), float(y)) for x, y in cv2.perspectiveTransform(inner, matrix)[0]]


CONTACT = 0.45  # how much light the picture's own shadow takes away, at its darkest


def _contact_shadow(arr: np.ndarray, quad: list[tuple[float, float]], box: list[int]) -> None:
    """Darken ``arr`` (RGB, in place) under the picture's own soft shadow, offset down-right: the
    quad filled at quarter size, box-blurred, brought up and multiplied in -- except inside the
    largest upright rectangle within the quad (less two pixels), which the picture covers next."""
    H, W = arr.shape[:2]
    off = max(4, W // 150)
    k = 4
    pad = 3 * off
    sx0, sy0 = max(0, box[0] - 1 - pad) // k * k, max(0, box[1] - 1 - pad) // k * k
    sx1, sy1 = min(W, box[2] + 1 + pad), min(H, box[3] + 1 + pad)
    small = Image.new("L", (-(-(sx1 - sx0) // k), -(-(sy1 - sy0) // k)), 255)
    ImageDraw.Draw(small).polygon([((x - sx0 + off) / k, (y - sy0 + off) / k) for x, y in quad], fill=255 - int(255 * CONTACT))
    keep = cv2.resize(np.asarray(small.filter(ImageFilter.BoxBlur(off / 4))), (small.width * k, small.height * k),
                      interpolation=cv2.INTER_LINEAR)
    (tlx, tly), (trx, try_), (brx, bry), (blx, bly) = quad
    inner = (math.ceil(max(tlx, blx)) + 2 - sx0, math.ceil(max(tly, try_)) + 2 - sy0,
             math.floor(min(trx, brx)) - 2 - sx0, math.floor(min(bly, bry)) - 2 - sy0)
    for ya, yb, xa, xb in _outside(inner, (sx1 - sx0, sy1 - sy0)):
        view = arr[sy0 + ya:sy0 + yb, sx0 + xa:sx0 + xb]
        view[:] = cv2.multiply(view, cv2.cvtColor(keep[ya:yb, xa:xb], cv2.COLOR_GRAY2RGB), scale=1 / 255.0)


def _outside(inner: tuple[int, int, int, int], size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The strips of a (w, h) region around the rectangle ``inner`` (x0, y0, x1, y1; may be empty or
    stick out), as (y0, y1, x0, x1) slices: above, below, left and right of it (empty ones left out)."""
    w, h = size
    x0, y0, x1, y1 = inner
    if x1 <= x0 or y1 <= y0:
        return [(0, h, 0, w)]
    top, bottom = min(max(y0, 0), h), max(min(y1, h), min(max(y0, 0), h))
    left, right = min(max(x0, 0), w), max(min(x1, w), min(max(x0, 0), w))
    strips = [(0, top, 0, w), (bottom, h, 0, w), (top, bottom, 0, left), (top, bottom, right, w)]
    return [(a, b, c, d) for a, b, c, d in strips if b > a and d > c]


# a share of the photos from level 1 on is taken sideways or upside down (counter-clockwise degrees)
TURN_SHARE = {0: 0.0, 1: 0.3, 2: 0.3, 3: 0.3}
TRANSPOSE = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}


def turn_of(ctx: Ctx) -> int:
    """How far the photo of this spec is turned (0, 90, 180 or 270 degrees counter-clockwise)."""
    r = ctx.rng("scene:turn")
    return r.choice((90, 180, 270)) if r.random() < TURN_SHARE[ctx.difficulty] else 0


def turned_box(box: list[int], size: tuple[int, int], turn: int) -> list[int]:
    """``box`` in an image of ``size`` after the image is turned ``turn`` degrees counter-clockwise."""
    x0, y0, x1, y1 = box
    W, H = size
    if turn == 90:
        return [y0, W - x1, y1, W - x0]
    if turn == 180:
        return [W - x1, H - y1, W - x0, H - y0]
    if turn == 270:
        return [H - y1, x0, H - y0, x1]
    return list(box)


SAMPLED_AS_DRAWN = (0.72, 1.1)  # shown at these scales of its drawn size, the page is warped from as it is


def _shrunk(doc: Image.Image | np.ndarray, quad: list[tuple[float, float]]) -> np.ndarray:
    """``doc`` (RGB, an image or an array) resampled to 1.25x its size in the photo, as an array, so the perspective
    warp after it samples near 1:1, where bilinear stays sharp and aliasing-free -- or ``doc`` as
    it is when the photo shows it near its drawn size (the warp's bilinear resamples it
    well by itself: the range :data:`SAMPLED_AS_DRAWN`; resampling first cost 2-4 ms, and tesseract
    read the photos within a value of it).

    Enlarging (the picture shown larger than drawn): OpenCV's bicubic. Shrinking by a scale k: a
    Gaussian of sigma 0.5 * sqrt(1/k - 1) (the antialiasing), then OpenCV's bilinear -- about a
    grey level from Pillow's antialiased bicubic on average, at a quarter of its cost or less;
    tesseract reads the photos at each level as it did with Pillow's (tests/generation/test_ocr.py).
    An image warped from as it is comes as Pillow keeps it, four bytes a pixel (RGB and a filler
    the warp drops): no packing to three bytes, and the warp's four channels need no conversion."""
    x0, y0, x1, y1 = bbox(quad)
    w, h = (doc.shape[1], doc.shape[0]) if isinstance(doc, np.ndarray) else doc.size
    k = min(1.25 * (x1 - x0) / w, 1.25 * (y1 - y0) / h)
    if SAMPLED_AS_DRAWN[0] <= k / 1.25 <= SAMPLED_AS_DRAWN[1]:  # the warp's bilinear samples it well as it is
        return doc if isinstance(doc, np.ndarray) else four_channels(doc, bgr=False)
    arr = doc if isinstance(doc, np.ndarray) else np.asarray(doc)
    size = (max(1, round(w * k)), max(1, round(h * k)))
    if k > 1:
        return cv2.resize(arr, size, interpolation=cv2.INTER_CUBIC)
    return cv2.resize(cv2.GaussianBlur(arr, (0, 0), 0.5 * math.sqrt(1 / k - 1)), size, interpolation=cv2.INTER_LINEAR)


def _defocus(arr: np.ndarray, sigma: float) -> np.ndarray:
    """``arr`` defocused: a three-tap blur [r, 1, r] / (2r + 1) across and down in one separable
    pass (OpenCV, edges extended), whose variance 2r / (2r + 1) is sigma squared -- the calibrated
    look: Pillow's fractional box blur, which rounds to grey levels between the two directions, so
    a few per cent of the pixels come out one level off it (never more), at a small fraction of its
    cost and half that of two passes; a Gaussian from sigma 0.8, where three taps no longer carry
    that variance."""
    var = sigma * sigma
    if var >= 0.64:
        return cv2.GaussianBlur(arr, (0, 0), sigma)
    r = var / (2 * (1 - var))
    taps = np.array([r, 1.0, r], np.float32) / np.float32(2 * r + 1)
    return cv2.sepFilter2D(arr, -1, taps, taps, borderType=cv2.BORDER_REPLICATE)


def _defocus_boxes(arr: np.ndarray, boxes: list, sigma: float) -> None:
    """:func:`_defocus` of ``arr`` (RGB, in place) inside each of ``boxes`` (and 2 px around it):
    every box is blurred from the pixels as they were before any of them (so where boxes overlap
    the result is the same as one blur over both), the rest of the frame left sharp."""
    H, W = arr.shape[:2]
    pad = 1 if sigma * sigma < 0.64 else math.ceil(3 * sigma)  # the kernel's reach
    done = []
    for box in boxes:
        x0, y0 = max(0, int(box[0]) - 2), max(0, int(box[1]) - 2)
        x1, y1 = min(W, int(math.ceil(box[2])) + 2), min(H, int(math.ceil(box[3])) + 2)
        if x1 <= x0 or y1 <= y0:
            continue
        sx0, sy0, sx1, sy1 = max(0, x0 - pad), max(0, y0 - pad), min(W, x1 + pad), min(H, y1 + pad)
        blurred = _defocus(arr[sy0:sy1, sx0:sx1], sigma)
        done.append((x0, y0, x1, y1, blurred[y0 - sy0:y1 - sy0, x0 - sx0:x1 - sx0]))
    for x0, y0, x1, y1, region in done:
        arr[y0:y1, x0:x1] = region


def camera(scene: Image.Image | np.ndarray, ctx: Ctx, quad: list[tuple[float, float]] | None = None, glare: bool = True,
           focus: list[int] | None = None, turn: int = 0, coded: list[int] | None = None,
           look: Level | None = None, tiled_noise: bool = False) -> Image.Image:
    """What the phone camera adds at the spec's level: uneven light, then (over ``quad``, the
    picture, when given) a cast shadow and glare, then defocus, sensor noise and JPEG. Defocus is
    applied inside ``focus`` ([left, top, right, bottom], the part that matters: a picture's
    bounding box; or a list of such boxes, :func:`_defocus_boxes`) when given, else over the whole
    frame (blurring costs per pixel). The photo
    comes out turned ``turn`` degrees counter-clockwise (a quarter turn of the decoded pixels).
    ``coded`` ([left, top, right, bottom], or a list of such boxes) limits the JPEG round trip to
    that part of the frame (:func:`jpeg_regions`); by default the whole frame
    goes through it. ``look`` replaces the level's settings (:data:`LEVELS`) when given; a
    quality of 0 skips the JPEG round trip. With ``tiled_noise`` the sensor noise is a window of a
    cached noise tile, as a scan's is (:func:`._common.sensor_noise`, in place): no random draw per pixel and
    nothing spread to RGB, 0.8 ms less on a 1024 x 768 frame; without it the noise is drawn afresh
    (the natural scenes: product_photo's level 3 reading sits at its band's edge, 2 of 6 values,
    and a tiled noise read 3).

    An RGB array ``scene`` is worked on in place (the callers' own scratch frame): each step writes
    into it, and the grey maps are spread to three channels in one reused buffer -- fresh
    full-frame arrays per step cost more than the arithmetic."""
    lv = look or LEVELS[ctx.difficulty]
    if isinstance(scene, np.ndarray):  # an RGB array the caller hands over (no copy in and out of Pillow)
        arr = scene
        H, W = arr.shape[:2]
    else:
        W, H = scene.size
        arr = np.array(scene.convert("RGB"))
    size = (W, H)
    # light and the cast shadow are one grey multiplier
    light = _lighting(size, ctx, lv.light) if lv.light else None
    if lv.shadow and quad is not None:  # the shadow darkens the light over its own region only
        if light is None:
            light = np.full((H, W), 255, np.uint8)
        sx, sy, cast = _cast_shadow(ctx, size, quad, lv.shadow)
        view = light[sy:sy + cast.shape[0], sx:sx + cast.shape[1]]
        view[:] = cv2.multiply(view, cv2.bitwise_not(cast), scale=1 / 255.0)
    spread = None  # the buffer a grey map is spread to RGB in
    if light is not None:
        spread = cv2.cvtColor(light, cv2.COLOR_GRAY2RGB)
        cv2.multiply(arr, spread, dst=arr, scale=1 / 255.0)
    if lv.blur and focus is not None and focus and isinstance(focus[0], (list, tuple)):
        _defocus_boxes(arr, focus, lv.blur)
    elif lv.blur:
        x0, y0, x1, y1 = (0, 0, W, H) if focus is None else (
            max(0, focus[0] - 2), max(0, focus[1] - 2), min(W, focus[2] + 2), min(H, focus[3] + 2))
        arr[y0:y1, x0:x1] = _defocus(arr[y0:y1, x0:x1], lv.blur)
    if lv.glare and glare and quad is not None:
        # added before the noise, over its own region: the sums the noise saturates are the same
        # (a pixel's noise goes one way only, and a glare and the noise above zero never reach 255)
        gx, gy, shine = _glare(ctx, size, quad, lv.glare)
        view = arr[gy:gy + shine.shape[0], gx:gx + shine.shape[1]]
        view[:] = cv2.add(view, cv2.cvtColor(shine, cv2.COLOR_GRAY2RGB))
    if lv.noise and tiled_noise:
        sensor_noise(arr, ctx.np_rng("scene:noise"), lv.noise, dst=arr)
    elif lv.noise:  # its part above zero added, the part below taken away
        up, down = grey_noise(ctx.np_rng("scene:noise"), size, lv.noise)
        cv2.add(arr, cv2.cvtColor(up, cv2.COLOR_GRAY2RGB, dst=spread), dst=arr)
        cv2.subtract(arr, cv2.cvtColor(down, cv2.COLOR_GRAY2RGB, dst=spread), dst=arr)
    if not lv.quality:
        photo = Image.fromarray(arr, "RGB")
    elif coded is None:
        photo = jpeg(arr, lv.quality)
    else:
        photo = jpeg_regions(arr, lv.quality, coded if coded and isinstance(coded[0], (list, tuple)) else [coded])
    return photo.transpose(TRANSPOSE[turn]) if turn else photo


JPEG_MARGIN = 16  # frame pixels around the picture that go through the JPEG round trip with it
# parts covering more of the frame than this: the whole frame is coded (no cutting); below it coding
# the parts costs less (a poster's part, 0.85 of the frame: 4.8 ms, the whole frame 5.5)
JPEG_WHOLE = 0.9


def _coded_rect(box: list[int], size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The part of a frame of ``size`` (w, h) :func:`jpeg_regions` codes for ``box``: the box and
    :data:`JPEG_MARGIN` around it, on the 16-px grid of the frame's blocks (x0, y0, x1, y1)."""
    W, H = size
    x0, y0 = max(0, int(box[0]) - JPEG_MARGIN) // 16 * 16, max(0, int(box[1]) - JPEG_MARGIN) // 16 * 16
    x1 = min(W, -(-(int(math.ceil(box[2])) + JPEG_MARGIN) // 16) * 16)
    y1 = min(H, -(-(int(math.ceil(box[3])) + JPEG_MARGIN) // 16) * 16)
    return x0, y0, x1, y1


def jpeg_regions(arr: np.ndarray, quality: int, boxes: list[list[int]]) -> Image.Image:
    """``arr`` (RGB, changed in place) as an image, the parts within :data:`JPEG_MARGIN` of
    ``boxes`` (the picture, or the objects of a scene) through the JPEG round trip, with the same
    pixels inside each box as :func:`._common.jpeg` of the whole frame: each part is cut on the
    16-pixel grid of the frame's 4:2:0 blocks (:func:`_coded_rect`), whose coding depends on their
    own pixels only, and its margin holds the decoder's chroma upsampling, which looks a sample
    across block edges. Every part is coded from the pixels as they were and written back, then
    every part's core (the box's own blocks, without the margin) again, so where parts overlap the
    pixels inside each box are still those of coding the whole frame. Outside them the surface
    keeps its noise and texture uncoded: the costs of coding and decoding follow the area, and at
    the hard levels a picture covers a sixth of the frame. Parts covering more than
    :data:`JPEG_WHOLE` of the frame between them: the whole frame is coded."""
    H, W = arr.shape[:2]
    pairs = [(r, b) for r, b in ((_coded_rect(b, (W, H)), b) for b in boxes) if r[2] > r[0] and r[3] > r[1]]
    rects, boxes = [r for r, _ in pairs], [b for _, b in pairs]
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rects) > JPEG_WHOLE * W * H:
        return jpeg(arr, quality)
    coded = [jpeg_array(arr[y0:y1, x0:x1], quality) for x0, y0, x1, y1 in rects]
    for (x0, y0, x1, y1), part in zip(rects, coded):
        arr[y0:y1, x0:x1] = part
    for (x0, y0, x1, y1), part, box in zip(rects, coded, boxes) if len(rects) > 1 else ():  # (one part overlaps nothing)
        cx0, cy0 = max(x0, int(box[0]) // 16 * 16), max(y0, int(box[1]) // 16 * 16)
        cx1 = min(x1, -(-int(math.ceil(box[2])) // 16) * 16)
        cy1 = min(y1, -(-int(math.ceil(box[3])) // 16) * 16)
        if cx1 > cx0 and cy1 > cy0:
            arr[cy0:cy1, cx0:cx1] = part[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    return Image.fromarray(arr, "RGB")


def flat(ctx: Ctx, kind: str) -> Ctx:
    """The context that draws the flat picture: the same content and seed, as ``kind`` at level 0
    (so the picture shows the same values the flat family would, and its defaults match)."""
    return Ctx(kind=kind, content=ctx.content, seed=ctx.seed, difficulty=0)
