"""Shared pieces of the generator: the per-scenario build context, parts, payloads, deictic phrases."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .images import Drafter, Img
from .world_index import WorldIndex, norm

ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
FIRST_ENTITY_ID = 9001


def call(name: str, save_as: str | None = None, **arguments: Any) -> dict[str, Any]:
    """A solution step calling tool ``name``."""
    step: dict[str, Any] = {"name": name, "arguments": arguments}
    if save_as:
        step["save_as"] = save_as
    return step


def say(text: str) -> dict[str, Any]:
    """A solution step where the assistant asks the user something."""
    return {"say": text}


def ref(label: str, path: str) -> dict[str, str]:
    """An argument filled from an earlier step's result (``save_as=label``)."""
    return {"$ref": f"{label}.{path}"}


@dataclass
class Payload:
    """What a flow extracted from a group of images, ready for a sink."""

    headline: str  # short name of the result ("Cheapest receipt")
    lines: list[str] = field(default_factory=list)  # text lines carrying the values
    entries: list[dict[str, Any]] = field(default_factory=list)  # one per entity to create
    amount: float | None = None
    summary: str = ""  # sentence for the assistant's answer
    facts: list[str] = field(default_factory=list)
    image_values: list[str] = field(default_factory=list)  # shown only in images
    derived: list[str] = field(default_factory=list)  # computed from image values
    keys: list[str] = field(default_factory=list)  # shown in images, also present in the world
    web_values: list[str] = field(default_factory=list)  # looked up on the web (staged pages), in no image
    web_queries: list[str] = field(default_factory=list)  # the searches that find them
    # value -> how far a careful reading may be off (values read off a chart's axis, and what is computed from them)
    tolerances: dict[str, float] = field(default_factory=dict)

    @property
    def body(self) -> str:
        return "\n".join(self.lines)


@dataclass
class Part:
    """The work of one user round."""

    request: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    answer: str = ""
    facts: list[str] = field(default_factory=list)
    kind: str = "task"
    clarifications: list[dict[str, Any]] = field(default_factory=list)
    state_changes: list[dict[str, Any]] = field(default_factory=list)
    instructions: str = ""
    image_ids: list[int] = field(default_factory=list)  # images delivered with this round
    is_task: bool = False  # does work on the world (a state mutation may precede it)
    report: list[str] = field(default_factory=list)  # facts the request asks to be told back (Round.report)
    guidance: list[str] = field(default_factory=list)  # private notes for the user simulator (Round.instructions)
    claim: dict[str, Any] | None = None  # a scripted wrong value the user states (error correction)
    claim_text: str = ""  # the claim's words as the request says them ("$45.10")
    confirm: str = ""  # the user's reply once the assistant points the claim out
    role: str = "task"  # setup (text-only, before late images) | task | share (the result sent on) | challenge


class Build:
    """Everything accumulated while generating one scenario."""

    def __init__(self, rng: random.Random, wi: WorldIndex, now: datetime) -> None:
        self.rng = rng
        self.wi = wi
        self.now = now
        self.drafter = Drafter(rng, wi, now)
        self.imgs: list[Img] = []
        self.prefer: set[str] = set()  # domains to favour when choosing sinks and recipes
        self.prefer_categories: list[str] = []  # image categories, least used first
        self.entities: dict[str, list[dict[str, Any]]] = {}
        self.domains: set[str] = set()
        self.image_values: list[str] = []
        self.derived: list[str] = []
        self.keys: list[str] = []
        self.web_values: list[str] = []  # facts the task looks up on the web (generation/web.py)
        self.web_lookalikes: list[dict[str, Any]] = []  # the staged pages that imitate an answering page
        self.looked_up: set[str] = set()  # the web searches the solution has made so far
        self.tolerances: dict[str, float] = {}  # see Payload.tolerances
        self.tool_use: dict[str, int] = {}  # tools the suite used so far (coverage-first choice of table rows)
        self.recipe_use: dict[str, int] = {}  # recipes the suite used so far (see db_recipes.make_db_recipe)
        self._next_id: dict[str, int] = {}
        self._labels = 0

    # ------------------------------------------------------------------ rows and values
    def new_id(self, table: str) -> int:
        nid = self._next_id.get(table, max(FIRST_ENTITY_ID, self.wi.max_key(table) + 1))
        self._next_id[table] = nid + 1
        return nid

    def add_row(self, table: str, row: dict[str, Any], key: str = "id") -> dict[str, Any]:
        if key not in row:
            row = {key: self.new_id(table), **row}
        self.entities.setdefault(table, []).append(row)
        return row

    def label(self, stem: str) -> str:
        self._labels += 1
        return f"{stem}{self._labels}"

    def note_values(self, payload: Payload) -> None:
        for bucket, values in ((self.image_values, payload.image_values), (self.derived, payload.derived), (self.keys, payload.keys),
                               (self.web_values, payload.web_values)):
            for v in values:
                if v and v not in bucket:
                    bucket.append(v)
        for v, tol in payload.tolerances.items():
            self.tolerances[v] = max(tol, self.tolerances.get(v, 0.0))

    def img(self, category: str, **kwargs: Any) -> int:
        self.imgs.append(self.drafter.make(category, **kwargs))
        return len(self.imgs) - 1

    @property
    def owner(self):
        return self.wi.owner

    # ------------------------------------------------------------------ people
    def contact(self, *, ambiguous: bool = False, exclude: set[int] = frozenset()) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """An owner's contact (a base-world row) and the other contacts sharing their first name."""
        by_first: dict[str, list[dict[str, Any]]] = {}
        for c in self.wi.contacts:
            by_first.setdefault(c["first_name"], []).append(c)
        pool = [c for c in self.wi.contacts if c["id"] not in exclude
                and (len(by_first[c["first_name"]]) > 1) == ambiguous and c.get("email")]
        chosen = self.rng.choice(pool)
        return chosen, [c for c in by_first[chosen["first_name"]] if c["id"] != chosen["id"]]


def _ordinal_list(positions: list[int]) -> str:
    words = [ORDINALS[p] for p in positions]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def describe_images(imgs: list[Img], scope: list[int], delivered_now: list[int], seen: list[int]) -> str:
    """A deictic phrase for the images in ``scope``: "this receipt", "the second and third cards I sent earlier"...

    ``seen`` lists every image id delivered so far (this round included), in order. Shelf photos
    add which product the user means, by its look (``extra["look"]``): the photo shows look-alikes.
    """
    looks = [imgs[i].extra["look"] for i in sorted(scope) if imgs[i].extra.get("look")]
    phrase = _deictic(imgs, scope, delivered_now, seen)
    if not looks:
        return phrase
    if len(looks) == 1:
        return f"{phrase} (on the shelf, I mean {looks[0]})"
    return f"{phrase} (on the shelves, the products I mean, in the order I sent them: {'; '.join(looks)})"


def _deictic(imgs: list[Img], scope: list[int], delivered_now: list[int], seen: list[int]) -> str:
    scope = sorted(scope)
    cats = {imgs[i].category for i in scope}
    one = imgs[scope[0]]
    if len(cats) > 1:
        noun, plural = "image", "images"
        pool = list(seen)
    else:
        noun, plural = one.noun, one.plural
        pool = [i for i in seen if imgs[i].category == one.category]
    now = [i for i in delivered_now if i in pool]
    n = len(scope)
    if scope == sorted(now):
        if n == 1:
            return f"this {noun}"
        return f"these {plural}" if len(cats) == 1 else f"these {n} {plural}"
    if set(scope) <= set(now):
        positions = [now.index(i) for i in scope]
        if n == 1:
            return f"the {ORDINALS[positions[0]]} {noun} I just sent"
        if positions == list(range(len(now) - n, len(now))) and n < len(now):
            return f"the last {n} {plural} I just sent" if n > 1 else f"the last {noun} I just sent"
        return f"the {_ordinal_list(positions)} {plural} I just sent"
    earlier = [i for i in pool if i not in now]
    if set(scope) <= set(earlier):
        if scope == sorted(earlier):
            return f"the {noun} I sent earlier" if n == 1 else f"the {plural} I sent earlier"
        positions = [pool.index(i) for i in scope]
        if n == 1:
            return f"the {ORDINALS[positions[0]]} {noun} from before"
        return f"the {_ordinal_list(positions)} {plural} from before"
    if scope == sorted(pool):
        return f"all {n} {plural} so far"
    new = [i for i in scope if i in now]
    old = [i for i in scope if i not in now]
    a = "this new " + noun if len(new) == 1 else f"these {len(new)} new {plural}"
    b = f"the {noun} from before" if len(old) == 1 else f"the {len(old)} {plural} from before"
    return f"{a} together with {b}"


def unique(values: list[str]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for v in values:
        k = norm(v)
        if v and k not in seen:
            seen.add(k)
            out.append(v)
    return out
