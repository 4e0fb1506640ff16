"""The generator's table engine: turns rows of the per-domain tables into rounds.

A domain table (``generation/domains/<domain>.py``, rows from :mod:`.rows`) lists what the generator can do in
that app:

* :class:`Read` -- call a tool with arguments built from a world row and report one value of
  its result ("what is the rating of the Sony Elite on Amazon?");
* :class:`Write` -- call one of the app's create / update / delete tools with arguments from a
  world row and from values the user dictates ("rename my 'Road Trip Mix' playlist to ...");
  ``change`` names the expected change it makes (op and table), which the tests check against
  the dry run;
* :class:`Flow` -- a cross-app round: read a value in one app and write it in two others.

Arguments and phrasings are templates: ``"{name}"`` alone keeps the column's value (and type),
anything else is formatted text; ``{v}`` is the value a read found (``{v_raw}`` unformatted); in a Flow the
read row's columns win and a write's own row is also there as ``{w_<column>}``; ``{me_email}``,
``{me_name}``, ``{me_phone}`` are the owner's. Read values are taken by calling the tool on the
scenario's real starting world (:func:`probe`), so the answer is always right.
:func:`choose` picks rows coverage-first: rows whose tools the suite has used least come
first (``Build.tool_use``, kept by the suite walk), so rarely used tools are reached.
A malformed row raises :class:`TableError` naming the row and what is wrong, when the table is
imported.
"""

from __future__ import annotations

import re
import string
from typing import Any, Callable

from ..tools.catalog import get_tool
from .core import Build, Part
from .domains import MAIN, ROWS
from .images import HARD_LEVEL
from .rows import OPS, OWNER, Flow, Read, Row, Rows, TableError, Write

_FIELD = re.compile(r"^\{(\w+)\}$")


# ---------------------------------------------------------------------------- templates and results
def fill(template: Any, env: dict[str, Any]) -> Any:
    """A template filled from ``env``: ``"{x}"`` alone keeps the value's type; dicts and lists recurse."""
    if isinstance(template, dict):
        return {k: fill(v, env) for k, v in template.items()}
    if isinstance(template, (list, tuple)):
        return [fill(v, env) for v in template]
    if isinstance(template, str):
        m = _FIELD.match(template)
        if m:
            return env[m.group(1)]
        return _TEXT.vformat(template, (), env)
    return template


class _Text(string.Formatter):
    def format_field(self, value: Any, spec: str) -> str:
        if isinstance(value, float) and not spec:  # dictated amounts read as money: 35.0 -> 35.00
            return f"{value:.2f}"
        return super().format_field(value, spec)


_TEXT = _Text()


def pick(result: Any, path: str | Callable[[Any], Any]) -> Any:
    """The value at ``path`` in a tool's result: dot-separated keys, list indexes (``-1`` last), ``#`` = length."""
    if callable(path):
        return path(result)
    value = result
    for part in filter(None, path.split(".")):
        if value is None:
            return None
        if part == "#":
            value = len(value)
        elif isinstance(value, list):
            i = int(part)
            value = value[i] if -len(value) <= i < len(value) else None
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def spoken(value: Any) -> str | None:
    """How a read value is said; None when there is nothing worth reporting."""
    if value is None or value == "" or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return str(value)


# ---------------------------------------------------------------------------- realising rows
def _owner_env(b: Build) -> dict[str, Any]:
    me = b.owner
    return {"me_email": me.email, "me_name": f"{me.first_name} {me.last_name}", "me_first": me.first_name,
            "me_phone": me.phone_number, "me_id": b.wi.owner_id, "me_home": f"/home/{me.first_name.lower()}/"}


def _candidates(b: Build, rows: Rows) -> list[dict[str, Any]]:
    cache = b.__dict__.setdefault("_row_cache", {})
    key = id(rows)
    if key not in cache:
        data = list(b.wi.tables.get(rows.table, {}).values())
        if callable(rows.where):
            data = [r for r in data if rows.where(r, b.wi)]
        else:
            want = {k: (b.wi.owner_id if v == OWNER else v) for k, v in rows.where.items()}
            data = [r for r in data if all(r.get(k) == v for k, v in want.items())]
        if rows.unique:  # unique among the rows the filter keeps (the owner's, usually)
            seen: dict[Any, int] = {}
            for r in data:
                seen[r.get(rows.unique)] = seen.get(r.get(rows.unique), 0) + 1
            data = [r for r in data if seen[r.get(rows.unique)] == 1 and r.get(rows.unique) not in (None, "")]
        cache[key] = data
    mine = {str(next(iter(r.values()))) for r in b.entities.get(rows.table, []) if r}
    taken = b.__dict__.setdefault("_rows_taken", set())
    return [r for r in cache[key] if (rows.table, id(r)) not in taken and str(next(iter(r.values()))) not in mine]


def _env(b: Build, row: Read | Write) -> dict[str, Any] | None:
    env = _owner_env(b)
    if row.rows is not None:
        options = _candidates(b, row.rows)
        if not options:
            return None
        chosen = b.rng.choice(options)
        b.__dict__.setdefault("_rows_taken", set()).add((row.rows.table, id(chosen)))
        env.update(chosen)
    if isinstance(row, Write):
        present = set(map(str, env.values()))
        for name, options in row.values.items():
            fresh = [o for o in options if str(o) not in present]  # an update must change something
            env[name] = b.rng.choice(fresh or list(options))
    return env


def _steps(row: Read | Write, env: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": t, "arguments": fill(a, env)} for t, a in (*row.pre, (row.tool, row.args))]


def _trial(b: Build, steps: list[dict[str, Any]], writes: list[Write]) -> bool:
    """Do ``steps`` succeed on the scenario's starting world and make every write's expected change?"""
    from ..tools.calling import invoke
    from ..world import World, build_layer
    from ..world.base import base_world
    from .dryrun import expected_changes

    base = base_world(b.wi.seed)
    world = World(base.layer, build_layer(b.entities, below=base.layer), now=b.now, user_id=b.wi.owner_id)
    for st in steps:
        if not invoke(world, st["name"], st["arguments"]).ok:
            return False
    made = {(c["operation"], c["table"]) for c in expected_changes(world)}
    return all(w.change in made for w in writes)


def probe(b: Build, tool: str, arguments: dict[str, Any]) -> Any:
    """The tool's result on the scenario's starting world (base world and the scenario's rows)."""
    stamp = sum(len(rows) for rows in b.entities.values())
    cached = b.__dict__.get("_probe_world")
    if cached is None or cached[0] != stamp:
        from ..world import World, build_layer
        from ..world.base import base_world

        base = base_world(b.wi.seed)
        cached = b.__dict__["_probe_world"] = (stamp, World(base.layer, build_layer(b.entities, below=base.layer), now=b.now,
                                                            user_id=b.wi.owner_id))
    from ..tools.calling import invoke

    outcome = invoke(cached[1], tool, arguments)
    return outcome.result if outcome.ok else None


def _read_value(b: Build, row: Read, env: dict[str, Any]) -> tuple[str | None, Any]:
    """(how the value is said, the value itself) read on the scenario's starting world."""
    result = probe(b, row.tool, fill(row.args, env))
    raw = pick(result, row.pick) if result is not None else None
    return spoken(raw), raw


def lead_in(lead: str, ask: str) -> str:
    """``ask`` after ``lead`` ("First, " + "How many ...?" -> "First, how many ...?"); a leading
    "I", an acronym or a quoted name keeps its capital.

    >>> lead_in("First, ", "How many songs?"), lead_in("Oh, and ", "I need a task"), lead_in("Before I forget: ", "Is it on?")
    ('First, how many songs?', 'Oh, and I need a task', 'Before I forget: Is it on?')
    """
    if lead and not lead.rstrip().endswith((":", ".", "?", "!")) and len(ask) > 1 and ask[0].isupper() and ask[1].islower():
        ask = ask[0].lower() + ask[1:]
    return lead + ask


def realise(b: Build, row: Row, lead: str = "") -> Part | None:
    """The round doing ``row`` (None when the world offers nothing for it); ``lead`` opens the request."""
    try:
        if isinstance(row, Read):
            env = _env(b, row)
            if env is None:
                return None
            v, env["v_raw"] = _read_value(b, row, env)
            if v is None:
                return None
            env["v"] = v
            return Part(lead_in(lead, fill(b.rng.choice(row.asks), env)), _steps(row, env), fill(row.answer, env),
                        facts=[v], report=[v])
        if isinstance(row, Write):
            env = _env(b, row)
            if env is None:
                return None
            steps = _steps(row, env)
            if not _trial(b, steps, [row]):
                return None
            return Part(lead_in(lead, fill(b.rng.choice(row.asks), env)), steps, fill(row.answer, env), is_task=True)
        env = _env(b, row.read)
        if env is None:
            return None
        v, env["v_raw"] = _read_value(b, row.read, env)
        if v is None:
            return None
        env["v"] = v
        steps = _steps(row.read, env)
        for w in row.writes:  # the read row's fields win; a write's own row is also there as w_<column>
            wenv = _env(b, w)
            if wenv is None:
                return None
            own = {f"w_{k}": x for k, x in wenv.items()}
            env.update({k: x for k, x in {**wenv, **own}.items() if k not in env})
            steps += _steps(w, {**env, **own})
        if not _trial(b, steps, list(row.writes)):
            return None
        return Part(lead_in(lead, fill(b.rng.choice(row.asks), env)), steps, fill(row.answer, env), facts=[v], report=[v],
                    is_task=True)
    except (KeyError, IndexError, ValueError) as exc:
        raise TableError(f"{getattr(row, 'tool', row.kind)} row: template field {exc} is not in the world row or values") from None


def all_rows() -> tuple[Row, ...]:
    return ROWS


def main_tools() -> frozenset[str]:
    return frozenset(t for tools in MAIN.values() for t in tools)


def apps_of(row: Row) -> set[str]:
    return {get_tool(t).app for t in row.tools}


FLOW_SHARE = 0.2  # how often a table round tries a cross-app flow first


def choose(b: Build, kinds: tuple[str, ...] = ("read", "write", "flow"), *, lead: str = "",
           ops: tuple[str, ...] = OPS, avoid_apps: set[str] = frozenset(), only_apps: set[str] = frozenset(),
           tries: int = 8) -> Part | None:
    """A round from the least-used rows of the tables (``b.tool_use`` counts tools the suite used so far).

    Rows whose tools were used least come first, a domain's main create/update/delete tools first
    among equals; a share of the rounds try the cross-app flows first. ``ops`` limits the writes
    (a warm-up only creates), ``avoid_apps`` skips rows touching apps the scenario's other rounds
    change (their values would no longer be those of the starting world), ``only_apps`` keeps rows
    whose apps all belong to that set.
    """
    used_rows = b.__dict__.setdefault("_rows_used", set())
    use, main = b.tool_use, main_tools()
    avoid_apps = set(avoid_apps) | set(b.__dict__.get("avoid_apps", ()))
    pool = [r for r in all_rows() if r.kind in kinds and id(r) not in used_rows and not (apps_of(r) & avoid_apps)
            and (not only_apps or apps_of(r) <= only_apps)
            and (not isinstance(r, Write) or r.change[0] in ops)
            and (not isinstance(r, Flow) or all(w.change[0] in ops for w in r.writes))]
    flows_first = "flow" in kinds and b.rng.random() < FLOW_SHARE

    def rank(r: Row) -> tuple[Any, ...]:
        least = min(use.get(t, 0) for t in r.tools)
        return (not (flows_first and isinstance(r, Flow)), least, not (set(r.tools) & main), sum(use.get(t, 0) for t in r.tools),
                b.rng.random())

    for row in sorted(pool, key=rank)[:tries]:
        used_rows.add(id(row))
        part = realise(b, row, lead)
        if part is not None:
            for st in part.steps:
                if "name" in st:
                    use[st["name"]] = use.get(st["name"], 0) + 1
            return part
    return None


# ---------------------------------------------------------------------------- visual tools an image needs
# (fact naming the region the values are in, tool): a photo whose document or product sits somewhere
# in a larger scene is cropped to it before reading; a degraded flat image gets its contrast raised.
VISION_CROP_FACTS = ("doc_box", "product_box")
ENHANCE_FACTOR = 1.6
ZOOM = 2  # resize_image factor for a crop at the top level (what ocr.assisted_views reads)


VISION_MIN_DIFFICULTY = 2  # below this level an image is legible as sent: the reference path reads it directly
UPRIGHT_MIN_ANGLE = 45  # a photo turned at least this far (sideways, upside down) is turned back first at any level


def vision_steps(b: Build, part: Part) -> list[dict[str, Any]]:
    """The visual tool calls the round's new images need before their values are read.

    The visual tools are always offered, but the reference path uses them only where an image is
    not legible as sent (the paper never mandates them): a photo taken sideways or upside down
    (the renderer reports its ``rotation``) is turned back first; from
    :data:`VISION_MIN_DIFFICULTY` on (heavy blur, noise, small print), photos are also cropped to
    the box the renderer reports (its draft pass, no pixels drawn here; ``crop_image`` takes
    0-1000 coordinates, so the pixel box is scaled by the reported ``frame``) and other images are
    enhanced.
    """
    from ..vision.render import render

    steps: list[dict[str, Any]] = []
    for i in part.image_ids:
        im = b.imgs[i]
        if im.difficulty < 1:
            continue
        facts = render(im.render_spec()).facts
        angle = facts.get("rotation")
        turned = isinstance(angle, (int, float)) and abs(angle) % 360 >= UPRIGHT_MIN_ANGLE
        if im.difficulty < VISION_MIN_DIFFICULTY and not turned:
            continue
        box = next((facts[k] for k in VISION_CROP_FACTS if isinstance(facts.get(k), (list, tuple)) and len(facts[k]) == 4), None)
        frame = facts.get("frame")
        target: Any = i
        if isinstance(angle, (int, float)) and angle:
            label = f"upright{i}"
            steps.append({"name": "rotate_image", "arguments": {"image_id": i, "angle": -float(angle), "expand": True},
                          "save_as": label})
            target = {"$ref": f"{label}.image_id"}
            box = facts.get("upright_box", box)
            if frame and angle % 180:
                frame = frame[::-1]
        if im.difficulty < VISION_MIN_DIFFICULTY:
            continue  # turned upright; otherwise legible
        if box is not None and frame:
            w, h = frame
            left, upper = (max(0, min(999, int(v * 1000 // d))) for v, d in ((box[0], w), (box[1], h)))
            right, lower = (min(1000, max(lo + 1, -(-int(v * 1000) // d))) for v, d, lo in ((box[2], w, left), (box[3], h, upper)))
            crop = {"name": "crop_image", "arguments": {"image_id": target, "left": left, "upper": upper,
                                                        "right": right, "lower": lower}}
            steps.append(crop)
            if im.difficulty >= HARD_LEVEL:  # the top level's print is small: the crop is read at twice its size
                crop["save_as"] = label = f"crop{i}"
                width, height = (box[2] - box[0]) * ZOOM, (box[3] - box[1]) * ZOOM
                steps.append({"name": "resize_image", "arguments": {"image_id": {"$ref": f"{label}.image_id"},
                                                                    "width": int(width), "height": int(height)}})
        elif target == i:
            steps.append({"name": "enhance_image", "arguments": {"image_id": i, "factor": ENHANCE_FACTOR}})
    return steps
