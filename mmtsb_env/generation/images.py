"""Image drafts: render specs whose every shown value the generator chose (and therefore knows).

An :class:`Img` couples a render spec with a *record*, the semantic view the flows use: a main
``label`` (merchant, company, person, event, product...), an ``amount``, a ``date``/``time``,
a ``person`` and sub-``items`` (receipt lines, chart bars, table rows, handwritten lines).
Contents are complete (totals and taxes are given explicitly), so the renderer draws exactly
these values; :func:`mmtsb_env.generation.verify.verify` re-renders and compares.

One record can be drawn by several render families from different image groups (the paper's
Table 12): a receipt as a flat receipt, a photo of it on a table, the shop app's order page or
the bank app's feed; an event as a poster, a photo of the poster on a wall, the events app's page
or a calendar day; a contact as a card, a chat or a signed mail; a chart as a chart, an
infographic or (counts only) a photo of objects stacked in columns (see :data:`RENDERINGS`). :meth:`Drafter.make` picks the family per image from the image's own seed
(so flows' random draws are untouched and the choice is deterministic), which mixes image
categories within scenarios as the paper's do. ``Img.group`` names the group.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Callable, Iterable, Iterator

from ..vision.render._common import seed_int
from ..vision.render.groups import group_of
from ..world import pools
from .errors import GenerationError
from .world_index import WorldIndex, norm

# Nouns fit every family a record can be drawn as (an order page is an e-receipt, a chat can
# share a contact card, an event listing is a poster or an app page).
NOUNS = {
    "receipt": ("receipt", "receipts"), "invoice": ("invoice", "invoices"),
    "business_card": ("contact card", "contact cards"), "event_poster": ("event listing", "event listings"),
    "chart": ("chart", "charts"), "price_tag": ("price tag", "price tags"), "sign": ("sign", "signs"),
    "table_document": ("table", "tables"), "handwritten_note": ("handwritten note", "handwritten notes"),
    "song_list": ("song list", "song lists"),  # a note or a shared playlist screen
    "settings": ("settings screenshot", "settings screenshots"),
    "shelf_photo": ("shelf photo", "shelf photos"),  # an unlabelled shelf: a product known only by its look
}


# record category (or the chart kind) -> (render family, weight): the families that draw the record
RENDERINGS: dict[str, tuple[tuple[str, int], ...]] = {
    "receipt": (("receipt", 3), ("receipt_photo", 5), ("order_screen", 1), ("bank_feed", 1)),
    "event_poster": (("event_poster", 2), ("poster_photo", 6), ("event_screen", 1), ("calendar_day", 1)),
    # a contact's signed message: on paper, on the phone (chat, inbox) or in the desktop mail client
    "business_card": (("business_card", 6), ("chat_screen", 1), ("inbox", 1), ("mail_client", 1)),
    # an invoice as paper, a statement of account, or its PDF previewed in a desktop file manager
    "invoice": (("invoice", 5), ("statement", 5), ("file_manager", 1)),
    "price_tag": (("price_tag", 1), ("product_photo", 3)),
    "handwritten_note": (("handwritten_note", 4), ("note_photo", 6)),
    "song_list": (("handwritten_note", 3), ("note_photo", 3), ("playlist_screen", 2)),  # a note of "Title - Artist" lines
    "bar_chart": (("bar_chart", 2), ("chart_read", 3), ("infographic", 2), ("tally_photo", 5), ("object_scene", 7)),
    "pie_chart": (("pie_chart", 6), ("infographic", 4)),
    # a printed table, a desktop spreadsheet, or the table as a CSV file in a code editor
    "table_document": (("table_document", 4), ("spreadsheet_screen", 1), ("ide_screen", 1)),
}


# how much more often than the others a suite draws a category (``generate`` favours the categories
# used least so far, each count divided by its weight): price tags (shelf photos, products known by
# their look) and charts (counts by colour, tallies) carry the paper's natural little-text group,
# which is in 28 % of its scenarios (Table 12: 71 / 258); at one weight each it was 15 % of ours, at
# these (with the palettes below) 75 of 258 (a full `mmtsb generate --n 258 --seed 2026`, oracle-verified)
CATEGORY_WEIGHTS = {"price_tag": 3.5, "chart": 2.4}

# the share of scenarios whose records of one kind are drawn by two families of different image
# groups (:func:`palette_of`); the others keep one family. The paper's Table 12 shares add up to
# 131 %: about a third of its scenarios combine two groups. Drawing every image's family on its
# own put a UI screen in 38 % of our scenarios and a document in 63 % (paper 17 % and 47 %).
SECOND_SOURCE = 0.5
# of those second families, the share kept when it is a screenshot (group ``ui``): for invoices and
# tables every family of another group is a screen, so without it UI screens were in 24 % of a
# nominal-sized sample (paper 17 %)
SECOND_UI = 0.5

# the share of images drawn at each level 0-3 (a documented mix, not a quarter each: at level 2
# tesseract still reads 44-100 % of a family's values as delivered, so the mix leans on level 3,
# the level that needs the visual tools; with :func:`ensure_hard` about 45 % of nominal's images
# end at level 3 and two thirds at levels 2-3 -- docs/images.md "Levels in the suites")
LEVEL_MIX = (0.15, 0.20, 0.25, 0.40)
# the share of bar and line charts that print their values (the others are read off the axis; with
# chart_read past level 0 and tally_photo, over half the chart images print no value)
PRINTED_SHARE = 0.1
# the level whose values the visual tools bring back (crop, zoom, enhance, rotate: plain reading
# <= 40 % for every calibrated family, docs/images.md); every scenario has an image there
HARD_LEVEL = 3


def level_of(seed: int) -> int:
    """An image's level, drawn over :data:`LEVEL_MIX` from its seed alone (deterministic)."""
    x, acc = random.Random(seed_int("level", seed)).random(), 0.0
    for level, share in enumerate(LEVEL_MIX):
        acc += share
        if x < acc:
            return level
    return len(LEVEL_MIX) - 1


# what a shop asks for each of :data:`..world.pools.TAG_PRODUCTS` (lowest, highest): a price tag's price is
# drawn in its product's range (over 4-60 for all of them a kilo of coffee beans cost $59.92)
TAG_PRICES = {"Ceramic Pour-Over Set": (18, 45), "Stainless Water Bottle 1L": (12, 35), "Herbal Shampoo 400ml": (4, 12),
              "Cast Iron Skillet 10in": (20, 45), "Wireless Mouse": (12, 40), "Scented Candle Fig": (10, 28),
              "Trail Mix 500g": (4, 9), "Dark Roast Beans 1kg": (12, 24), "Bamboo Cutting Board": (10, 30),
              "Sparkling Water 12pk": (4, 9)}

# the share of shelf photos whose product the user names by where it stands rather than by its look
PLACED_SHARE = 0.4

# who writes a handwritten note: one of the real handwriting faces in four notes of five (written at
# the levels where it passed the handwriting check, :data:`..vision.render.handwritten_note.HAND_LEVELS`;
# a DejaVu italic elsewhere: about half the notes over the level mix), else a DejaVu italic
WRITERS = (None, "hand-dkg", "hand-print", "hand-casual", "hand-script")

# whether composing checks that every needed value of a level 2-3 image is legible with the visual
# tools (tesseract over the tools' views, :func:`ocr.tool_legible`; about a second an image), set
# by ``generate(..., legible=True)`` / ``mmtsb generate --legible`` through :func:`legibility_checked`
LEGIBLE: ContextVar[bool] = ContextVar("legible", default=False)


@contextmanager
def legibility_checked(on: bool = True) -> Iterator[None]:
    token = LEGIBLE.set(on)
    try:
        yield
    finally:
        LEGIBLE.reset(token)


def _legible(im: "Img") -> bool:
    from .ocr import tool_legible

    return not tool_legible(im.render_spec())


def settle_levels(imgs: list["Img"], seed: int, needed: Iterable[str] = ()) -> None:
    """Give a scenario's images their final levels: with :data:`LEGIBLE` on, an image at level 2-3
    whose needed values tesseract cannot read even with the visual tools is redrawn a level lower
    until they are (levels 0-1 are read plain: 90-100 % for every family); then one image is
    raised to :data:`HARD_LEVEL` when none is there (:func:`ensure_hard`; with ``needed``, the
    values the task takes from the images, one that shows a needed value no level 0-1 image of the
    scenario shows). A pinned image (a shelf
    photo whose product the request names by where it stands on that level's shelf) keeps its
    level. GenerationError when no image can be both hard and legible, or a pinned one is not
    legible (the attempt is redrawn)."""
    check = LEGIBLE.get()
    if check:
        for im in imgs:
            while im.difficulty >= 2 and not _legible(im):
                if im.extra.get("_pinned"):
                    raise GenerationError("a shelf photo named by where its product stands is not legible at its level")
                im.difficulty -= 1
    if not ensure_hard(imgs, seed, _legible if check else None, needed):
        raise GenerationError("no image of this scenario stays legible at the top level")


def shown_values(im: "Img") -> set[str]:
    """What an image shows, normalised (:func:`.world_index.norm`): its record's label, amount, date,
    time, person and items, and every text and number of its render content."""
    out: set[str] = set()

    def add(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                add(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                add(x)
        elif isinstance(v, bool) or v is None:
            return
        elif isinstance(v, (int, float)):
            out.update({norm(money(v)), norm(number(v))})
        else:
            out.add(norm(str(v)))

    add([im.label, im.amount, im.date, im.time, im.person or {}, im.items, im.content])
    out.discard("")
    return out


def needs_hard(imgs: list["Img"], needed: Iterable[str]) -> bool:
    """Whether an image at :data:`HARD_LEVEL` shows a value of ``needed`` that no level 0-1 image
    of the scenario shows (so the task cannot be done from the easy images alone)."""
    wanted = {norm(v) for v in needed} - {""}
    shown = [shown_values(im) for im in imgs]

    def holds(texts: set[str], value: str) -> bool:  # a name inside a note's or a table's text counts
        return value in texts or len(value) >= 4 and any(value in t for t in texts)

    easy = [s for im, s in zip(imgs, shown) if im.difficulty <= 1]
    return any(im.difficulty >= HARD_LEVEL and any(holds(s, v) and not any(holds(e, v) for e in easy) for v in wanted)
               for im, s in zip(imgs, shown))


def ensure_hard(imgs: list["Img"], seed: int, legible: Callable[["Img"], bool] | None = None,
                needed: Iterable[str] = ()) -> bool:
    """Raise one image to :data:`HARD_LEVEL` when none of ``imgs`` is there, so no scenario can be
    read without the visual tools (tried in an order drawn from ``seed``, pinned images left as they
    are, see :func:`settle_levels`; with ``legible`` only one that passes it). With ``needed`` (the
    values the task takes from the images) an image at that level must also show one that no level
    0-1 image shows (:func:`needs_hard`): such an image is raised first, and only when none can be,
    any image as before (the scenario's ``hard_image_needed`` metadata then says false). False when
    none can be raised."""
    needed = list(needed)
    if not imgs or (needs_hard(imgs, needed) if needed else any(im.difficulty >= HARD_LEVEL for im in imgs)):
        return True
    order = list(range(len(imgs)))
    random.Random(seed_int("hard", seed)).shuffle(order)
    free = [i for i in order if not imgs[i].extra.get("_pinned") and imgs[i].difficulty < HARD_LEVEL]
    for pick in free if needed else []:  # first an image whose raising makes a needed value hard
        was, imgs[pick].difficulty = imgs[pick].difficulty, HARD_LEVEL
        if needs_hard(imgs, needed) and (legible is None or legible(imgs[pick])):
            return True
        imgs[pick].difficulty = was
    if any(im.difficulty >= HARD_LEVEL for im in imgs):
        return True
    for pick in [i for i in order if not imgs[i].extra.get("_pinned")]:
        was, imgs[pick].difficulty = imgs[pick].difficulty, HARD_LEVEL
        if legible is None or legible(imgs[pick]):
            return True
        imgs[pick].difficulty = was
    return False


def pick_rendering(key: str, seed: int, palette: tuple[str, ...] | None = None) -> str:
    """The family that draws a ``key`` record whose image seed is ``seed`` (deterministic), among
    ``palette`` (the scenario's families for ``key``, :func:`palette_of`) when given."""
    options = [(k, w) for k, w in RENDERINGS.get(key, ()) if palette is None or k in palette]
    if not options:
        return key
    r = random.Random(seed_int("rendering", key, seed))
    return r.choices([k for k, _ in options], weights=[w for _, w in options])[0]


def palette_of(key: str, seed: int) -> tuple[str, ...]:
    """The families a scenario draws its ``key`` records with, from the seed of its first such image:
    one by :data:`RENDERINGS`'s weights, and in :data:`SECOND_SOURCE` of scenarios a second one of
    another image group (a screenshot kept only in :data:`SECOND_UI` of those) (a scenario's images come from one or two of the paper's sources)."""
    options = RENDERINGS.get(key)
    if not options:
        return (key,)
    r = random.Random(seed_int("palette", key, seed))
    first = r.choices([k for k, _ in options], weights=[w for _, w in options])[0]
    others = [(k, w) for k, w in options if group_of(k) != group_of(first)]
    if not others or r.random() >= SECOND_SOURCE:
        return (first,)
    second = r.choices([k for k, _ in others], weights=[w for _, w in others])[0]
    if group_of(second) == "ui" and r.random() >= SECOND_UI:
        return (first,)
    return first, second


def money(x: float) -> str:
    """``22.1 -> '22.10'``, ``1200 -> '1,200.00'`` (what receipts print, without the currency sign)."""
    return f"{x:,.2f}"


def dollars(x: float) -> str:
    return "$" + money(x)


def number(x: float) -> str:
    """A chart/table value as printed: integers without decimals."""
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.1f}"


@dataclass
class Img:
    """One scenario image: render spec + the values it shows."""

    category: str
    kind: str
    content: dict[str, Any]
    seed: int
    difficulty: int = 0
    label: str = ""
    amount: float | None = None
    date: str | None = None  # ISO date
    time: str | None = None  # HH:MM
    person: dict[str, str] | None = None
    items: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def group(self) -> str:
        """The paper's image group this image belongs to (see :mod:`mmtsb_env.vision.render.groups`)."""
        return group_of(self.kind)

    @property
    def noun(self) -> str:
        return NOUNS[self.extra.get("_record", self.category)][0]

    @property
    def plural(self) -> str:
        return NOUNS[self.extra.get("_record", self.category)][1]

    def render_spec(self) -> dict[str, Any]:
        return {"kind": self.kind, "content": self.content, "seed": self.seed, "difficulty": self.difficulty}

    def facts(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label}
        for key in ("amount", "date", "time", "person"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.items:
            out["items"] = self.items
        out.update({k: v for k, v in self.extra.items() if not k.startswith("_")})
        return out

    def to_spec(self) -> dict[str, Any]:
        """The scenario's ``images[i]`` entry."""
        return {"render": self.render_spec(), "category": self.category, "facts": self.facts()}

    @property
    def when(self) -> datetime | None:
        if self.date is None:
            return None
        hh, mm = (self.time or "09:00").split(":")
        d = date.fromisoformat(self.date)
        return datetime(d.year, d.month, d.day, int(hh), int(mm))


class Drafter:
    """Draws image contents for one scenario: unique labels, values absent from the base world."""

    def __init__(self, rng: random.Random, wi: WorldIndex, now: datetime) -> None:
        self.rng, self.wi, self.now = rng, wi, now
        self.used: set[str] = set()
        self.chart_values: list[tuple[list[float], float]] = []  # each chart's values and read tolerance
        self.palettes: dict[str, tuple[str, ...]] = {}  # record kind -> the families this scenario draws it with

    def rendering(self, key: str, seed: int) -> str:
        """The family of a ``key`` record with image seed ``seed``, within this scenario's palette
        for ``key`` (drawn from its first such image's seed, :func:`palette_of`)."""
        palette = self.palettes.setdefault(key, palette_of(key, seed))
        return pick_rendering(key, seed, palette)

    # ------------------------------------------------------------------ helpers
    def fresh(self, make: Callable[[], str], check_world: bool = True) -> str:
        """A value from ``make`` not used in this scenario and (optionally) absent from the base world;
        :class:`GenerationError` (a compose failure the walk counts and redraws) when 200 draws find none."""
        for _ in range(200):
            value = make()
            key = norm(value)
            if key in self.used or (check_world and self.wi.mentions(value)):
                continue
            self.used.add(key)
            return value
        raise GenerationError("could not draw a fresh value")

    def price(self, lo: float, hi: float) -> float:
        def make() -> str:
            return money(round(self.rng.uniform(lo, hi), 2))
        return float(self.fresh(make).replace(",", ""))

    def seed(self) -> int:
        return self.rng.randint(0, 2**31 - 1)

    def _seeded(self) -> tuple[int, int]:
        """A fresh image seed and the level it draws."""
        seed = self.seed()
        return seed, self.difficulty(seed)

    def difficulty(self, seed: int) -> int:
        """The image's level, drawn from its own seed over :data:`LEVEL_MIX` (so the flows' draws
        are untouched); :func:`ensure_hard` then raises one image of a scenario to the top level
        when none is there."""
        return level_of(seed)

    def future_date(self, lo: int = 3, hi: int = 45) -> str:
        return (self.now.date() + timedelta(days=self.rng.randint(lo, hi))).isoformat()

    def past_date(self, lo: int = 1, hi: int = 25) -> str:
        return (self.now.date() - timedelta(days=self.rng.randint(lo, hi))).isoformat()

    # ------------------------------------------------------------------ families
    def receipt(self, shop: str | None = None, n_items: int | None = None, lo: float = 0.0) -> Img:
        rng = self.rng
        shop = shop or rng.choice(sorted(pools.SHOP_TYPES))
        suffixes, catalog = pools.SHOP_TYPES[shop]
        merchant = self.fresh(lambda: f"{rng.choice(pools.SHOP_WORDS_A)} {rng.choice(pools.SHOP_WORDS_B)} {rng.choice(suffixes)}")
        chosen = rng.sample(catalog, min(len(catalog), n_items or rng.randint(2, 4)))
        items = []
        for name, a, b in chosen:
            qty = 1 if rng.random() < 0.75 else 2
            price = round(rng.uniform(max(a, lo), max(b, lo + 1)), 2)
            while self.wi.mentions(money(qty * price)) or norm(money(qty * price)) in self.used:
                price = round(price + 0.03, 2)
            self.used.add(norm(money(qty * price)))
            items.append({"name": name, "qty": qty, "price": price, "amount": round(qty * price, 2)})
        subtotal = round(sum(i["amount"] for i in items), 2)
        tax_rate = rng.choice([0.0, 5.0, 6.0, 7.0, 8.0])
        tax = round(subtotal * tax_rate / 100 + 1e-9, 2)
        total = round(subtotal + tax, 2)
        def stale(x: float) -> bool:
            return self.wi.mentions(money(x)) or norm(money(x)) in self.used

        if stale(total):
            self.used.discard(norm(money(items[0]["amount"])))
            while stale(total) or stale(items[0]["amount"]):
                items[0]["price"] = round(items[0]["price"] + 0.07, 2)
                items[0]["amount"] = round(items[0]["qty"] * items[0]["price"], 2)
                subtotal = round(sum(i["amount"] for i in items), 2)
                tax = round(subtotal * tax_rate / 100 + 1e-9, 2)
                total = round(subtotal + tax, 2)
            self.used.add(norm(money(items[0]["amount"])))
        self.used.add(norm(money(total)))
        last4 = f"{rng.randint(1000, 9999)}"
        when = self.past_date()
        content = {
            "merchant": merchant, "date": when, "time": f"{rng.randint(8, 20):02d}:{rng.choice([0, 10, 25, 40, 55]):02d}",
            "items": [{"name": i["name"], "qty": i["qty"], "price": i["price"]} for i in items],
            "tax": tax, "tax_rate": tax_rate, "total": total, "payment": f"VISA **** {last4}", "currency": "$",
        }
        return Img("receipt", "receipt", content, *self._seeded(), label=merchant, amount=total,
                   date=when, items=items, extra={"subtotal": subtotal, "tax": tax, "card_last4": last4, "shop": shop})

    def invoice(self, bill_to: str | None = None, taxed: bool = False) -> Img:
        rng = self.rng
        company = self.fresh(lambda: f"{rng.choice(pools.COMPANY_A)} {rng.choice(pools.COMPANY_B)}")
        number = self.fresh(lambda: f"INV-{rng.randint(10000, 99999)}")
        lines = []
        for desc, a, b in rng.sample(pools.SERVICES, rng.randint(1, 3)):
            qty = rng.choice([1, 1, 2, 3])
            unit = round(rng.uniform(a, b), 2)
            lines.append({"name": desc, "qty": qty, "unit_price": unit, "amount": round(qty * unit, 2)})
        subtotal = round(sum(l["amount"] for l in lines), 2)
        tax_rate = rng.choice([5.0, 8.0] if taxed else [0.0, 5.0, 8.0])
        tax = round(subtotal * tax_rate / 100 + 1e-9, 2)
        total = round(subtotal + tax, 2)
        while self.wi.mentions(money(total)) or norm(money(total)) in self.used:
            lines[0]["unit_price"] = round(lines[0]["unit_price"] + 0.5, 2)
            lines[0]["amount"] = round(lines[0]["qty"] * lines[0]["unit_price"], 2)
            subtotal = round(sum(l["amount"] for l in lines), 2)
            tax = round(subtotal * tax_rate / 100 + 1e-9, 2)
            total = round(subtotal + tax, 2)
        self.used.add(norm(money(total)))
        due = self.future_date(5, 40)
        issued = self.past_date(1, 10)
        bill = bill_to or f"{self.wi.owner.first_name} {self.wi.owner.last_name}"
        content = {
            "company": company, "invoice_number": number, "invoice_date": issued, "due_date": due, "bill_to": bill,
            "items": [{"description": l["name"], "qty": l["qty"], "unit_price": l["unit_price"]} for l in lines],
            "tax_rate": tax_rate, "tax": tax, "total": total, "currency": "$",
        }
        return Img("invoice", "invoice", content, *self._seeded(), label=company, amount=total, date=due,
                   items=lines, extra={"invoice_number": number, "bill_to": bill, "subtotal": subtotal})

    def business_card(self, person: dict[str, str] | None = None) -> Img:
        rng = self.rng
        if person is None:
            name = self.fresh(lambda: f"{rng.choice(pools.FIRST_NAMES)} {rng.choice(pools.LAST_NAMES)}")
            first, last = name.split(" ", 1)
            company = rng.choice(pools.CARD_COMPANIES)
            domain = "".join(ch for ch in company.lower() if ch.isalnum())[:14] + ".com"
            email = self.fresh(lambda: f"{first[0].lower()}.{last.lower().replace('-', '')}@{domain}")
            phone = self.fresh(lambda: f"{rng.randint(201, 989)}-{rng.randint(200, 899)}-{rng.randint(1000, 9999)}")
            person = {"first_name": first, "last_name": last, "name": name, "email": email, "phone": phone,
                      "company": company, "title": rng.choice(pools.JOB_TITLES)}
        else:
            self.used.add(norm(person["name"]))
        content = {"name": person["name"], "title": person["title"], "company": person["company"],
                   "phone": person["phone"], "email": person["email"]}
        return Img("business_card", "business_card", content, *self._seeded(), label=person["name"],
                   person=dict(person))

    def event_poster(self, weekend: bool | None = None, free: bool | None = None) -> Img:
        rng = self.rng
        title = self.fresh(lambda: f"{rng.choice(pools.EVENT_WORDS)} {rng.choice(pools.EVENT_KINDS)}")
        for _ in range(100):
            day = self.future_date(4, 50)
            is_weekend = date.fromisoformat(day).weekday() >= 5
            if (weekend is None or weekend == is_weekend) and norm(day) not in self.used:
                break
        self.used.add(norm(day))
        time = f"{rng.randint(10, 20):02d}:{rng.choice([0, 30]):02d}"
        venue = self.fresh(lambda: rng.choice(pools.VENUES))
        if free is None:
            free = rng.random() < 0.3
        price = 0 if free else rng.choice([8, 12, 15, 18, 22, 25, 30, 35])
        content = {"title": title, "date": day, "time": time, "venue": venue, "price": price if price else "Free",
                   "currency": "$", "organiser": rng.choice(pools.ORGANISERS)}
        return Img("event_poster", "event_poster", content, *self._seeded(), label=title,
                   amount=float(price), date=day, time=time, extra={"venue": venue, "free": not price})

    def chart(self, kind: str | None = None, topic: tuple | None = None, avoid: float | None = None) -> Img:
        """A chart record; nine in ten bar and line charts print no values (:data:`PRINTED_SHARE`):
        those are read off the axis, right within ``read_tolerance`` (in the image's facts; the
        renderer reports the same). A chart's highest and lowest values stand out from its others,
        the scenario's highest and lowest chart values from every other (by both tolerances), and
        an unprinted chart's values keep clear of ``avoid`` (a filter's threshold): what a flow
        picks is never a matter of reading precision (:meth:`_clear`)."""
        from ..vision.render.charts import read_tolerance

        rng = self.rng
        kind = kind or rng.choice(["bar_chart", "bar_chart", "line_chart", "pie_chart"])
        title0, units, labels, (lo, hi) = topic or rng.choice(pools.CHART_TOPICS)
        title = self.fresh(lambda: f"{title0} {rng.choice(['2024', '2025', '(North Branch)', '(South Branch)', '- Team A', '- Team B'])}",
                           check_world=False)
        values = self._chart_values(title0, labels, lo, hi)
        seed = self.seed()
        kind = self.rendering(kind, seed)
        counted = None
        if kind in ("tally_photo", "object_scene"):  # objects to count: a counting topic of its own (flows' topics keep a flat chart)
            counted = None if topic is not None else self._tally(seed) if kind == "tally_photo" else self._colour_count(seed)
            if counted is None:
                kind = "bar_chart"
        printed = kind not in ("bar_chart", "line_chart") or random.Random(seed_int("printed", seed)).random() < PRINTED_SHARE
        tol = 0.0
        for _ in range(60):
            tol = 0.0 if printed else read_tolerance(values, False, bars=kind == "bar_chart")
            if self._clear(values, tol, avoid):
                break
            values = self._chart_values(title0, labels, lo, hi)
        else:
            printed, tol = True, 0.0  # no clear draw for a chart read off its axis: this one prints its values
        content = {"title": title, "labels": list(labels), "values": values, "units": units, "value_labels": printed}
        if kind == "bar_chart":
            content["horizontal"] = False
        elif kind == "chart_read":  # values sit on minor gridlines, so they can be read exactly
            values = on_gridlines(values)
            content = {"title": title, "labels": list(labels), "values": values, "units": units}
        elif counted is not None:
            title, shape, labels, values = counted
            units = ""
            content = {"title": title, "labels": labels, "values": values, "units": units, "shape": shape}
        self.chart_values.append((list(values), tol))
        items = [{"name": l, "amount": v} for l, v in zip(labels, values)]
        top = max(items, key=lambda i: i["amount"])
        return Img("chart", kind, content, seed, self.difficulty(seed), label=title, amount=top["amount"], items=items,
                   extra={"units": units, "top": top["name"], "total": sum(values), "read_tolerance": tol})

    def _chart_values(self, title: str, labels, lo: float, hi: float) -> list[float]:
        """Distinct whole values in ``[lo, hi]``, one per label; a month series follows its season
        (:data:`pools.SEASONS`: no July colder than May)."""
        rng, values = self.rng, []
        season = pools.SEASONS.get(title)
        for label in labels:
            for _ in range(200):
                if season is not None:
                    mid = lo + (hi - lo) * season[label]
                    v = float(round(min(hi, max(lo, mid + rng.uniform(-0.12, 0.12) * (hi - lo)))))
                else:
                    v = float(rng.randint(int(lo), int(hi)))
                if v not in values:
                    break
            values.append(v)
        return values

    def _clear(self, values: list[float], tol: float, avoid: float | None) -> bool:
        """Whether a new chart's ``values`` (read within ``tol``) can be told apart where a flow
        picks: from ``avoid``; its own highest and lowest from its other values; and the scenario's
        highest and lowest chart value (over every chart so far, :meth:`chart`) from all others."""
        if avoid is not None and tol and any(abs(v - avoid) <= tol for v in values):
            return False
        for e in {min(values), max(values)}:
            if tol and any(abs(e - v) <= 2 * tol for v in values if v != e):
                return False
        every = [(v, t) for vals, t in self.chart_values for v in vals] + [(v, tol) for v in values]
        for pick in (max, min):
            k = pick(range(len(every)), key=lambda j: every[j][0])
            e, te = every[k]
            if any(abs(e - v) <= te + t for j, (v, t) in enumerate(every) if j != k):
                return False
        return True

    def _tally(self, seed: int) -> tuple[str, str, list[str], list[float]] | None:
        """A counting chart for ``tally_photo`` (drawn from the image seed, so the flows' draws stay
        as they are): its lowest and highest counts are unique among this scenario's tallies (a
        compare flow's answer is never a tie); None when no such counts are left."""
        from ..vision.render.tally_photo import default_topic

        r = random.Random(seed_int("tally", seed))
        for _ in range(40):
            title0, shape, labels, values = default_topic(r)
            ends = (norm(f"tally {min(values):g}"), norm(f"tally {max(values):g}"))
            if not any(e in self.used for e in ends):
                break
        else:
            return None
        self.used.update(ends)
        title = self.fresh(lambda: f"{title0} - {r.choice(['Week', 'Tray', 'Table', 'Group'])} {r.randint(2, 19)}",
                           check_world=False)
        return title, shape, labels, values

    def _colour_count(self, seed: int) -> tuple[str, str, list[str], list[float]] | None:
        """A count by colour for ``object_scene`` (objects of one shape scattered on a table among
        strays, :mod:`..vision.render.object_scene`), drawn from the image seed; its lowest and
        highest counts unique among this scenario's counts, as :meth:`_tally`'s."""
        from ..vision.render.object_scene import COUNT_COLORS, COUNT_NOUNS, MAX_COUNT

        r = random.Random(seed_int("colour-count", seed))
        for _ in range(40):
            shape = r.choice(sorted(COUNT_NOUNS))
            labels = [c.title() for c in r.sample(COUNT_COLORS, r.randint(3, 4))]
            values = [float(v) for v in r.sample(range(1, MAX_COUNT + 1), len(labels))]
            ends = (norm(f"tally {min(values):g}"), norm(f"tally {max(values):g}"))
            if not any(e in self.used for e in ends):
                break
        else:
            return None
        self.used.update(ends)
        title = self.fresh(lambda: f"{COUNT_NOUNS[shape]} by Colour - {r.choice(['Table', 'Tray', 'Desk', 'Box'])} {r.randint(2, 19)}",
                           check_world=False)
        return title, shape, labels, values

    def price_tag(self, product: tuple[str, str, str] | None = None, price: float | None = None,
                  on_sale: bool | None = None) -> Img:
        rng = self.rng
        if product is None:
            name = self.fresh(lambda: rng.choice(pools.TAG_PRODUCTS)[0], check_world=False)
            product = next(p for p in pools.TAG_PRODUCTS if p[0] == name)
        else:
            self.used.add(norm(product[0]))
        name, brand, obj = product
        price = price if price is not None else self.price(*TAG_PRICES.get(name, (4, 60)))
        if on_sale is None:
            on_sale = rng.random() < 0.4
        content = {"product": name, "brand": brand, "price": price, "currency": "$", "object": obj,
                   "sku": f"{rng.randint(100000, 999999)}", "on_sale": on_sale}  # said either way: the renderer draws no sale of its own
        extra: dict[str, Any] = {"brand": brand, "on_sale": on_sale}
        if on_sale:
            old = round(price * rng.uniform(1.15, 1.5), 2)
            content["old_price"] = old
            extra["old_price"] = old
        return Img("price_tag", "price_tag", content, *self._seeded(), label=name, amount=price,
                   extra=extra)

    def sign(self, style: str | None = None, early: bool | None = None) -> Img:
        rng = self.rng
        style = style or rng.choice(["storefront", "notice"])
        if style == "storefront":
            text = self.fresh(lambda: rng.choice(pools.STORE_SIGNS).format(a=rng.choice(pools.SHOP_WORDS_A), b=rng.choice(pools.SHOP_WORDS_B)))
            opens = rng.choice([6, 7, 8] if early else [9, 10, 11] if early is False else [7, 8, 9, 10])
            closes = int(self.fresh(lambda: str(rng.choice([16, 17, 18, 19, 20, 21, 22]) + 100), check_world=False)) - 100
            sub = f"OPEN {opens}AM - {closes - 12}PM"
            extra = {"opens": f"{opens:02d}:00", "closes": f"{closes:02d}:00", "hours": sub}
        else:
            code = self.fresh(lambda: str(rng.randint(1000, 9999)))
            text = rng.choice(pools.NOTICE_CODES).format(n=code)
            sub = ""
            extra = {"code": code}
        content = {"text": text, "subtext": sub, "style": style, "skew": False}
        return Img("sign", "sign", content, *self._seeded(), label=text, extra={"style": style, **extra})

    def table_document(self, theme: str | None = None) -> Img:
        """A dense table (12-20 rows of 5-6 columns, cells drawn from wide ranges): a class
        schedule, a repair price list or a volunteer roster. Two to four rows pass a filter's
        threshold (fee under $40, price under $80) whatever the rest are, so a filter keeps a few."""
        rng = self.rng
        theme = theme or rng.choice(sorted(pools.TABLE_THEMES))
        title0, headers = pools.TABLE_THEMES[theme]
        title = self.fresh(lambda: f"{title0} - {rng.choice(['Spring', 'Summer', 'Fall', 'Winter'])} {rng.choice(['Session', 'Edition', 'Schedule'])}",
                           check_world=False)
        rows, items = [], []
        n = rng.randint(12, 20)
        cheap = set(rng.sample(range(n), rng.randint(2, 4)))
        if theme == "class_schedule":
            names = rng.sample([f"{lv} {sub}" for lv in pools.CLASS_LEVELS for sub in pools.CLASS_SUBJECTS], n)
            for k, name in enumerate(names):
                day, time = rng.choice(pools.WEEKDAYS), f"{rng.randint(8, 20):02d}:{rng.choice(['00', '15', '30', '45'])}"
                fee = rng.randint(15, 39) if k in cheap else rng.randint(40, 140)
                teacher = f"{rng.choice(pools.FIRST_NAMES)[0]}. {rng.choice(pools.LAST_NAMES)}"
                rows.append([name, teacher, rng.choice(pools.CLASS_ROOMS), day, time, fee])
                items.append({"name": name, "day": day, "time": time, "amount": float(fee)})
        elif theme == "price_list":
            pairs = rng.sample([(s_, d) for s_ in pools.REPAIR_SERVICES for d in pools.REPAIR_DEVICES], n)
            codes = rng.sample(range(100, 999), n)
            for k, (service, device) in enumerate(pairs):
                name = f"{service} ({device.lower()})"
                mins = rng.choice([15, 20, 30, 40, 45, 60, 75, 90, 120, 180])
                price = rng.randint(19, 79) if k in cheap else rng.randint(80, 349)
                rows.append([f"{device[0]}{service[0]}-{codes[k]}", service, device, f"{mins} min", price])
                items.append({"name": name, "minutes": mins, "amount": float(price)})
        else:
            people = [p for p in self.wi.base.people if p.id != self.wi.owner_id]
            for p in rng.sample(people, min(n, len(people))):
                day, hour, hours = rng.choice(pools.WEEKDAYS[:6]), rng.randint(7, 17), rng.randint(2, 6)
                time = f"{hour:02d}:{rng.choice(['00', '30'])}"
                rows.append(roster_row(rng, p.full_name, day, time, hours))
                items.append({"name": p.full_name, "person_id": p.id, "day": day, "time": time, "amount": float(hours)})
        content = {"title": title, "headers": list(headers), "rows": rows, "subtitle": "", "notes": ""}
        return Img("table_document", "table_document", content, *self._seeded(), label=title, items=items,
                   extra={"theme": theme, "headers": list(headers)})

    def handwritten_note(self, lines: list[str] | None = None, title: str | None = None) -> Img:
        rng = self.rng
        if lines is None:
            lines = rng.sample(pools.ERRANDS, rng.randint(3, 4))
        for line in lines:
            self.used.add(norm(line))
        title = title if title is not None else rng.choice(["To do", "Errands", "Don't forget", "This week"])
        content = {"text": "\n".join(lines), "title": title, "paper": rng.choice(["lined", "plain", "sticky"]),
                   "ink": rng.choice(["blue", "black"]), "signature": ""}
        seed, level = self._seeded()
        hand = random.Random(seed_int("hand", seed)).choice(WRITERS)  # the image's own draw: the flows' are untouched
        if hand is not None:
            content["hand"] = hand
        return Img("handwritten_note", "handwritten_note", content, seed, level, label=title,
                   items=[{"name": l} for l in lines])

    def song_list(self, lines: list[str], title: str) -> Img:
        """A handwritten-note record of ``"Title - Artist"`` lines, which a friend's shared playlist
        screen can show as well as a note (flows see a ``handwritten_note``)."""
        img = self.handwritten_note(lines=lines, title=title)
        img.kind = img.extra["_record"] = "song_list"
        return img

    def settings(self, device: dict[str, bool], device_name: str) -> Img:
        """A screenshot of a phone's Settings app whose four real switches show ``device`` (the
        ``setting.device`` columns); the decoy switches, network and carrier come from the rng."""
        from ..vision.render.settings_screen import CARRIERS, NETWORKS, REAL

        rng = self.rng
        if set(device) != set(REAL):
            raise ValueError(f"device must give exactly {', '.join(sorted(REAL))}")
        content: dict[str, Any] = {**device, "device_name": device_name, "network": rng.choice(NETWORKS),
                                   "carrier": rng.choice(CARRIERS), "bluetooth": rng.random() < 0.5,
                                   "do_not_disturb": rng.random() < 0.4, "hotspot": rng.random() < 0.2,
                                   "battery": rng.randint(12, 97)}
        content["airplane_mode"] = not device["cellular"] and not device["wifi"] and rng.random() < 0.5
        img = Img("settings", "settings_screen", content, *self._seeded(), label=device_name,
                  extra={"device": dict(device)})
        return img

    def shelf_photo(self, line: str, obj: str, look: dict[str, str], price: float) -> Img:
        """A photo of an unlabelled shop shelf (``product_photo`` with ``unlabelled``): the ``obj``
        the store sells as ``line`` in ``look`` (color, mark, size) among its look-alikes, nothing
        printed that names or prices a product. The user names it by where it stands and says
        which line it is, so the catalogue row must be matched by look. Drawn at level 2 or 3 (from
        its own seed): the look-alikes a match needs (its twin in the other size, the same one in
        another colour, with another mark) all stand on those shelves; the level is pinned, as the
        place is that level's shelf (:func:`settle_levels`)."""
        seed = self.seed()
        level = 2 + random.Random(seed_int("shelf-level", seed)).randrange(2)
        content = {"product": line, "brand": line.split(" ")[0], "object": obj, "price": price, "currency": "$", "on_sale": False,
                   "unlabelled": True, **look}
        img = Img("price_tag", "product_photo", content, seed, level, label=line,
                  extra={"_record": "shelf_photo", "_pinned": True, "unlabelled": True})
        img.extra["look"] = f"{look_of(img, by_place=True)}, which Amazon sells as the {line}"
        return img

    def make(self, category: str, **kwargs: Any) -> Img:
        """A ``category`` record, drawn by one of the families that can show it (:data:`RENDERINGS`)."""
        img = getattr(self, category)(**kwargs)
        if category != "chart":  # charts pick inside :meth:`chart` (reading off gridlines needs other values)
            img.kind = self.rendering(img.kind, img.seed)
        if img.kind == "product_photo":  # known by its look among look-alikes, or by where it stands: the user says which one
            by_place = random.Random(seed_int("placed", img.seed)).random() < PLACED_SHARE
            img.extra["look"] = look_of(img, by_place)
            if by_place:  # where it stands is this level's shelf: the level is kept (see settle_levels)
                img.extra["_pinned"] = True
            img.extra.pop("brand", None)  # no package prints it: not a fact of this image
        return img


def roster_row(rng: random.Random, name: str, day: str, time: str, hours: int) -> list[Any]:
    """A volunteer roster's row (:data:`pools.TABLE_THEMES` ``shift_roster``): name, a role, day,
    start, hours and a station (the role and station from ``rng``)."""
    return [name, rng.choice(pools.ROSTER_ROLES), day, time, hours, rng.choice(pools.ROSTER_STATIONS)]


def look_of(img: Img, by_place: bool = False) -> str:
    """How the user names a shelf photo's product: its look ("the blue bottle with a star mark",
    the same at every level: the renderer draws it from the content and seed), or with ``by_place``
    where it stands on the shelf of the image's level ("the second product from the right on the
    lower shelf", :func:`..vision.render.product_photo.placement`)."""
    from ..vision.render import render

    return render(img.render_spec()).facts["placed" if by_place else "description"]


def on_gridlines(values: list[float]) -> list[float]:
    """``values`` moved onto the minor gridlines of the ``chart_read`` axis they make, all distinct."""
    from ..vision.render.chart_read import grid

    out = list(values)
    for _ in range(10):
        minor = grid(out)[2]
        moved: list[float] = []
        for v in out:
            g = round(v / minor) * minor
            while g in moved or g <= 0:
                g += minor
            moved.append(float(g))
        if moved == out:
            break
        out = moved
    return out
