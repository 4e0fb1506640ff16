"""The generic information flows: aggregate, compare, filter and compute over image records.

A :class:`Flow` drafts the images of its category, then turns any group of them into a
:class:`~mmtsb_env.generation.core.Payload` (text lines, entities, an amount, facts) and the
phrase the user says to ask for it. The database-backed flows (validate, lookup_chain,
cross_reference) live in :mod:`mmtsb_env.generation.recipes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from .core import Build, Payload, unique
from .images import Img, dollars, money, number

# category -> what one image contributes when aggregated
AGGREGATE_CATEGORIES = ("receipt", "invoice", "business_card", "event_poster", "chart", "price_tag", "sign", "handwritten_note")
COMPARE_CATEGORIES = ("receipt", "invoice", "price_tag", "event_poster", "chart", "sign")
FILTER_CATEGORIES = ("receipt", "chart", "table_document", "event_poster", "price_tag", "business_card", "sign")
COMPUTE_CATEGORIES = ("receipt", "invoice", "price_tag", "event_poster", "chart", "table_document")


def _is_number_like(value: str) -> bool:
    return value.replace(",", "").replace(".", "").isdigit()


@dataclass
class Flow:
    """One generic flow over one image category, with its variant (criterion, threshold, operation)."""

    name: str
    category: str
    variant: dict[str, Any] = field(default_factory=dict)
    additive: bool = True  # a later group adds to the result (else the result is recomputed over all groups)
    min_group: int = 1
    web: bool = False  # each item's outside fact is looked up on the web and carried (generation/web.py)

    # ------------------------------------------------------------------ drafting
    def draft(self, b: Build, n: int) -> list[int]:
        """Draft ``n`` images of the category (variant constraints applied); returns their ids."""
        cat, v = self.category, self.variant
        ids: list[int] = []
        for i in range(n):
            kwargs: dict[str, Any] = {}
            if self.name == "filter":
                passing = i % 2 == 0 if n > 1 else True
                if cat == "event_poster":
                    kwargs = {"weekend": passing} if v["test"] == "weekend" else {"free": passing}
                elif cat == "price_tag":
                    kwargs = {"on_sale": passing}
                elif cat == "business_card":
                    kwargs = {}
                elif cat == "sign":
                    kwargs = {"style": "storefront", "early": passing}
            if self.name == "compute" and cat == "price_tag" and v.get("op") == "savings":
                kwargs = {"on_sale": True}
            if self.name == "compute" and cat == "event_poster":
                kwargs = {"free": False}
            if self.name == "compute" and cat == "invoice":
                kwargs = {"taxed": True}
            if cat == "table_document":
                kwargs = {"theme": v.get("theme")}
            if cat == "sign" and self.name != "filter":
                kwargs = {"style": "storefront"}
            if cat == "chart" and v.get("topic") is not None:
                kwargs = {"topic": v["topic"], "avoid": v.get("threshold")}
            ids.append(b.img(cat, **kwargs))
        if self.name == "filter" and cat == "business_card":
            titles = ["Project Manager", "Marketing Manager", "Office Manager"]
            others = ["Senior Engineer", "Data Analyst", "Research Scientist", "Product Lead"]
            for k, i in enumerate(ids):
                person = b.imgs[i].person
                assert person is not None
                person["title"] = b.rng.choice(titles if k % 2 == 0 else others)
                b.imgs[i].content["title"] = person["title"]
        return ids

    # ------------------------------------------------------------------ phrasing
    def ask(self, ref: str) -> str:
        """What the user asks for, about the images described by ``ref``."""
        cat, v = self.category, self.variant
        if self.name == "aggregate":
            return f"Go through {ref} and collect {AGG_DESC[cat]}."
        if self.name == "compare":
            return f"Look at {ref} and find {compare_desc(cat, v)}."
        if self.name == "filter":
            return f"From {ref}, pick out {filter_desc(cat, v)}."
        return f"Using {ref}, work out {compute_desc(cat, v)}."

    # ------------------------------------------------------------------ results
    def payload(self, b: Build, group: list[int]) -> Payload:
        imgs = [b.imgs[i] for i in group]
        fn = {"aggregate": _aggregate, "compare": _compare, "filter": _filter, "compute": _compute}[self.name]
        p = fn(self, b, imgs)
        if self.web:
            from .web import enrich

            enrich(p, imgs)
        p.facts = unique(p.facts)
        return p


# ---------------------------------------------------------------------------- aggregate
AGG_DESC = {
    "receipt": "each store's name and its total",
    "invoice": "each company, its invoice number, the total and the due date",
    "business_card": "each person's name, job title, company, phone number and email",
    "event_poster": "each event's name, date, start time and venue",
    "chart": "the chart title, its highest category and that value for each chart",
    "price_tag": "each product's name and its price",
    "sign": "what each sign says",
    "handwritten_note": "every item written on them",
}


def _aggregate(flow: Flow, b: Build, imgs: list[Img]) -> Payload:
    p = Payload(headline="Collected details")
    for im in imgs:
        if im.category == "receipt":
            p.lines.append(f"{im.label}: {dollars(im.amount)}")
            p.entries.append({"title": f"{im.label} {dollars(im.amount)}", "amount": im.amount, "image": im})
            p.image_values += [im.label, money(im.amount)]
            p.facts += [im.label, money(im.amount)]
        elif im.category == "invoice":
            num = im.extra["invoice_number"]
            p.lines.append(f"{im.label} {num}: {dollars(im.amount)}, due {im.date}")
            p.entries.append({"title": f"Pay {im.label} invoice {num} ({dollars(im.amount)})", "date": im.date, "time": "09:00",
                              "amount": im.amount, "image": im})
            p.image_values += [im.label, num, money(im.amount), im.date]
            p.facts += [num, money(im.amount)]
        elif im.category == "business_card":
            pr = im.person
            p.lines.append(f"{pr['name']}, {pr['title']} at {pr['company']}, {pr['phone']}, {pr['email']}")
            p.entries.append({"title": pr["name"], "person": pr, "image": im})
            p.image_values += [pr["name"], pr["phone"], pr["email"]]
            p.facts += [pr["name"], pr["phone"]]
        elif im.category == "event_poster":
            p.lines.append(f"{im.label}: {im.date} {im.time} at {im.extra['venue']}")
            p.entries.append({"title": im.label, "date": im.date, "time": im.time, "venue": im.extra["venue"], "image": im})
            p.image_values += [im.label, im.extra["venue"], im.date]
            p.facts += [im.label, im.date]
        elif im.category == "chart":
            top = im.extra["top"]
            p.lines.append(f"{im.label}: {top} ({number(im.amount)})")
            p.entries.append({"title": f"{im.label}: {top}", "image": im})
            p.keys += [top, im.label]
            p.image_values += [number(im.amount)]
            p.facts += [top, number(im.amount)]
        elif im.category == "price_tag":
            p.lines.append(f"{im.label}: {dollars(im.amount)}")
            p.entries.append({"title": f"{im.label} {dollars(im.amount)}", "amount": im.amount, "image": im})
            p.keys += [im.label]
            p.image_values += [money(im.amount)]
            p.facts += [im.label, money(im.amount)]
        elif im.category == "sign":
            text = im.label + (f" ({im.extra['hours']})" if im.extra.get("hours") else "")
            p.lines.append(text)
            p.entries.append({"title": text, "image": im})
            p.image_values += [im.label]
            p.facts += [im.label]
        elif im.category == "handwritten_note":
            for it in im.items:
                p.lines.append(it["name"])
                p.entries.append({"title": it["name"][:1].upper() + it["name"][1:], "image": im})
                p.keys += [it["name"]]
                p.facts += [it["name"]]
    p.summary = "Here is what the images show: " + "; ".join(p.lines) + "."
    return p


# ---------------------------------------------------------------------------- compare
def compare_desc(cat: str, v: dict[str, Any]) -> str:
    hi = v["pick"] == "max"
    if cat == "receipt":
        return "the receipt with the " + ("highest" if hi else "lowest") + " total"
    if cat == "invoice":
        return "the invoice with the " + ("largest" if hi else "smallest") + " amount due"
    if cat == "price_tag":
        return "the " + ("most expensive" if hi else "cheapest") + " product"
    if cat == "event_poster":
        return "the event that happens " + ("last" if hi else "first")
    if cat == "sign":
        return "the shop that closes " + ("latest" if hi else "earliest")
    return "the single " + ("highest" if hi else "lowest") + " value across the charts, with its chart and category"


def _compare_key(im: Img, cat: str) -> Any:
    if cat == "event_poster":
        return (im.date, im.time)
    if cat == "sign":
        return im.extra["closes"]
    return im.amount


def _compare(flow: Flow, b: Build, imgs: list[Img]) -> Payload:
    cat, v = flow.category, flow.variant
    hi = v["pick"] == "max"
    if cat == "chart":
        bars = [(it["amount"], im, it) for im in imgs for it in im.items]
        value, im, it = (max if hi else min)(bars, key=lambda t: t[0])
        line = f"{im.label}: {it['name']} ({number(value)})"
        p = Payload(headline=("Highest" if hi else "Lowest") + " value", lines=[line], amount=value)
        p.entries.append({"title": f"{it['name']} ({number(value)})", "image": im})
        p.keys += [it["name"], im.label]
        p.image_values += [number(value)]
        p.facts += [it["name"], number(value)]
        p.summary = f"The {('highest' if hi else 'lowest')} value is {it['name']} in '{im.label}' at {number(value)}."
        return p
    win = (max if hi else min)(imgs, key=lambda im: _compare_key(im, cat))
    others = [im for im in imgs if im is not win]
    if cat == "sign":
        line = f"{win.label}: open until {win.extra['closes']}"
        p = Payload(headline=("Latest" if hi else "Earliest") + " closing shop", lines=[line])
        p.entries.append({"title": win.label, "time": win.extra["closes"], "image": win})
        p.image_values += [win.label]
        p.keys += [win.extra["hours"]]
        p.facts += [win.label]
        p.summary = f"{win.label} closes {'latest' if hi else 'earliest'} ({win.extra['hours']})."
        return p
    if cat == "event_poster":
        line = f"{win.label}: {win.date} {win.time} at {win.extra['venue']}"
        p = Payload(headline=("Latest" if hi else "Earliest") + " event", lines=[line])
        p.entries.append({"title": win.label, "date": win.date, "time": win.time, "venue": win.extra["venue"], "image": win})
        p.image_values += [win.label, win.date, win.extra["venue"]]
        p.facts += [win.label, win.date]
        p.summary = f"{win.label} on {win.date} at {win.time} is the {'last' if hi else 'first'} event."
        return p
    word = {"receipt": ("Most expensive" if hi else "Cheapest") + " receipt",
            "invoice": ("Largest" if hi else "Smallest") + " invoice",
            "price_tag": ("Most expensive" if hi else "Cheapest") + " product"}[cat]
    line = f"{win.label}: {dollars(win.amount)}"
    p = Payload(headline=word, lines=[line], amount=win.amount)
    p.entries.append({"title": f"{win.label} {dollars(win.amount)}", "amount": win.amount, "image": win})
    if cat == "price_tag":
        p.keys += [win.label]
    else:
        p.image_values += [win.label]
    p.image_values += [money(win.amount)]
    p.facts += [win.label, money(win.amount)]
    rest = ", ".join(f"{o.label} {dollars(o.amount)}" for o in others)
    adj = {"receipt": ("most expensive" if hi else "cheapest") + " receipt",
           "invoice": ("largest" if hi else "smallest") + " invoice",
           "price_tag": ("most expensive" if hi else "cheapest") + " product"}[cat]
    p.summary = f"{win.label} at {dollars(win.amount)} is the {adj}" + (f" (the others: {rest})." if rest else ".")
    return p


# ---------------------------------------------------------------------------- filter
def filter_desc(cat: str, v: dict[str, Any]) -> str:
    if cat == "receipt":
        return f"every purchased item whose line amount is over ${v['threshold']:.0f}, with its store"
    if cat == "chart":
        return f"every category with a value above {number(v['threshold'])}, with its chart"
    if cat == "table_document":
        return TABLE_FILTERS[v["theme"]][0].format(t=v.get("threshold"), day=v.get("day"))
    if cat == "event_poster":
        return "only the events on a weekend" if v["test"] == "weekend" else "only the free events"
    if cat == "price_tag":
        return "only the products that are on sale, with their sale price"
    if cat == "sign":
        return "only the shops that open before 9 AM, with their opening hours"
    return "only the people whose job title contains 'Manager'"


TABLE_FILTERS = {
    "class_schedule": ("every class that costs less than ${t}, with its day and time (for dates, use the next date on that weekday)",),
    "price_list": ("every service that costs under ${t}, with its price",),
    "shift_roster": ("every volunteer scheduled on {day}, with their start time (for dates, use the next {day})",),
}


def _filter(flow: Flow, b: Build, imgs: list[Img]) -> Payload:
    cat, v = flow.category, flow.variant
    p = Payload(headline="Selected items")
    for im in imgs:
        if cat == "receipt":
            for it in im.items:
                if it["amount"] > v["threshold"]:
                    p.lines.append(f"{it['name']} ({im.label}): {dollars(it['amount'])}")
                    p.entries.append({"title": f"{it['name']} from {im.label}", "amount": it["amount"], "image": im})
                    p.keys += [it["name"]]
                    p.image_values += [im.label, money(it["amount"])]
                    p.facts += [it["name"], money(it["amount"])]
        elif cat == "chart":
            for it in im.items:
                if it["amount"] > v["threshold"]:
                    p.lines.append(f"{it['name']} ({im.label}): {number(it['amount'])}")
                    p.entries.append({"title": f"{it['name']} ({im.label})", "image": im})
                    p.keys += [it["name"]]
                    p.image_values += [number(it["amount"])]
                    p.facts += [it["name"], number(it["amount"])]
        elif cat == "table_document":
            theme = v["theme"]
            for it in im.items:
                if theme == "class_schedule" and it["amount"] < v["threshold"]:
                    p.lines.append(f"{it['name']}: {it['day']} {it['time']}, {dollars(it['amount'])}")
                    p.entries.append({"title": it["name"], "weekday": it["day"], "time": it["time"], "image": im,
                                      "date": next_weekday(b.now, it["day"]).isoformat()})
                    p.keys += [it["name"]]
                    p.image_values += [it["day"], it["time"], money(it["amount"])]  # asked for: day, time (and the fee)
                    p.facts += [it["name"]]
                elif theme == "price_list" and it["amount"] < v["threshold"]:
                    p.lines.append(f"{it['name']}: {dollars(it['amount'])}")
                    p.entries.append({"title": it["name"], "amount": it["amount"], "image": im})
                    p.keys += [it["name"]]
                    p.image_values += [money(it["amount"])]  # asked for: the price
                    p.facts += [it["name"]]
                elif theme == "shift_roster" and it["day"] == v["day"]:
                    p.lines.append(f"{it['name']}: {it['day']} {it['time']}")
                    p.entries.append({"title": f"{it['name']} shift", "weekday": it["day"], "time": it["time"], "image": im,
                                      "date": next_weekday(b.now, it["day"]).isoformat()})
                    p.keys += [it["name"]]
                    p.image_values += [it["day"], it["time"]]  # asked for: the start time
                    p.facts += [it["name"]]
        elif cat == "event_poster":
            ok = date.fromisoformat(im.date).weekday() >= 5 if v["test"] == "weekend" else im.extra["free"]
            if ok:
                p.lines.append(f"{im.label}: {im.date} {im.time} at {im.extra['venue']}")
                p.entries.append({"title": im.label, "date": im.date, "time": im.time, "venue": im.extra["venue"], "image": im})
                p.image_values += [im.label, im.date]
                p.facts += [im.label]
        elif cat == "price_tag":
            if im.extra["on_sale"]:
                p.lines.append(f"{im.label}: {dollars(im.amount)}")
                p.entries.append({"title": f"{im.label} {dollars(im.amount)}", "amount": im.amount, "image": im})
                p.keys += [im.label]
                p.image_values += [money(im.amount)]
                p.facts += [im.label, money(im.amount)]
        elif cat == "sign":
            if int(im.extra["opens"][:2]) < 9:
                p.lines.append(f"{im.label}: {im.extra['hours']}")
                p.entries.append({"title": im.label, "time": im.extra["opens"], "image": im})
                p.image_values += [im.label]
                p.facts += [im.label]
        elif cat == "business_card":
            pr = im.person
            if "Manager" in pr["title"]:
                p.lines.append(f"{pr['name']}, {pr['title']}, {pr['phone']}, {pr['email']}")
                p.entries.append({"title": pr["name"], "person": pr, "image": im})
                p.image_values += [pr["name"], pr["phone"], pr["email"]]
                p.facts += [pr["name"]]
    p.summary = ("These match: " + "; ".join(p.lines) + ".") if p.lines else "None of them match."
    return p


# ---------------------------------------------------------------------------- compute
def compute_desc(cat: str, v: dict[str, Any]) -> str:
    op = v["op"]
    if cat == "receipt":
        return "how much I spent in total" if op == "sum" else f"my equal share if the total of all of them is split {v['ways']} ways"
    if cat == "invoice":
        return "the total amount due across them" if op == "sum" else "how much of the total is tax"
    if cat == "price_tag":
        return "what one of each costs altogether" if op == "sum" else "how much I save in total by buying at the sale prices"
    if cat == "event_poster":
        return f"what tickets cost altogether for {v['people']} people to go to all of them"
    if cat == "chart":
        return "the sum of all the values in each chart, added together" if op == "sum" else "the gap between the highest and the lowest value in each chart, added together"
    return "the combined price of every row" if op == "sum" else "the combined fee of every class"


def _compute(flow: Flow, b: Build, imgs: list[Img]) -> Payload:
    cat, v = flow.category, flow.variant
    op = v["op"]
    if cat == "receipt":
        total = round(sum(im.amount for im in imgs), 2)
        value = total if op == "sum" else round(total / v["ways"], 2)
        what = "Total spent" if op == "sum" else f"Share of {dollars(total)} split {v['ways']} ways"
    elif cat == "invoice":
        value = round(sum(im.amount for im in imgs), 2) if op == "sum" else round(sum(im.amount - im.extra["subtotal"] for im in imgs), 2)
        what = "Total due" if op == "sum" else "Tax included"
    elif cat == "price_tag":
        value = round(sum(im.amount for im in imgs), 2) if op == "sum" else round(sum(im.extra.get("old_price", im.amount) - im.amount for im in imgs), 2)
        what = "Cost of one of each" if op == "sum" else "Total savings"
    elif cat == "event_poster":
        value = round(sum(im.amount for im in imgs) * v["people"], 2)
        what = f"Tickets for {v['people']} people"
    elif cat == "chart":
        value = float(sum(im.extra["total"] for im in imgs)) if op == "sum" else float(sum(max(i["amount"] for i in im.items) - min(i["amount"] for i in im.items) for im in imgs))
        what = "Sum of all values" if op == "sum" else "Sum of the gaps"
    else:
        value = float(sum(it["amount"] for im in imgs for it in im.items))
        what = "Combined price"
    text = number(value) if cat == "chart" else dollars(value)
    shown = number(value) if cat == "chart" else money(value)
    p = Payload(headline=what, lines=[f"{what}: {text}"], amount=value)
    if cat == "chart":  # values read off an axis: the result is as far off as its terms may be
        tol = sum(im.extra.get("read_tolerance", 0.0) * (len(im.items) if op == "sum" else 2) for im in imgs)
        if tol:
            p.tolerances[shown] = round(tol, 10)
    p.derived += [shown]
    p.facts += [shown]
    p.summary = f"{what}: {text}."
    p.entries.append({"title": f"{what}: {text}", "amount": value})
    return p


# ---------------------------------------------------------------------------- choosing a flow
def make_flow(b: Build, name: str, category: str) -> Flow:
    rng = b.rng
    if name == "aggregate":
        return Flow(name, category)
    if name == "compare":
        return Flow(name, category, {"pick": rng.choice(["max", "min"])}, additive=False, min_group=2)
    if name == "filter":
        v: dict[str, Any] = {}
        if category == "receipt":
            v["threshold"] = float(rng.choice([6, 8, 10]))
        elif category == "chart":
            v["topic"] = rng.choice([t for t in _chart_topics() if t[3][1] >= 100])
            lo, hi = v["topic"][3]
            v["threshold"] = float(round((lo + (hi - lo) * rng.uniform(0.4, 0.6)) / 10) * 10)
        elif category == "table_document":
            v["theme"] = rng.choice(["class_schedule", "price_list", "shift_roster"])
            v["threshold"] = {"class_schedule": 40, "price_list": 80, "shift_roster": None}[v["theme"]]
            v["day"] = rng.choice(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"])
        elif category == "event_poster":
            v["test"] = rng.choice(["weekend", "free"])
        return Flow(name, category, v)
    v = {}
    if category == "receipt":
        v = {"op": rng.choice(["sum", "split"]), "ways": rng.choice([2, 3, 4])}
    elif category == "invoice":
        v = {"op": rng.choice(["sum", "sum", "tax"])}
    elif category == "price_tag":
        v = {"op": rng.choice(["sum", "savings"])}
    elif category == "event_poster":
        v = {"op": "tickets", "people": rng.choice([2, 3, 4])}
    elif category == "chart":
        v = {"op": rng.choice(["sum", "gap"])}
    else:
        v = {"op": "sum", "theme": rng.choice(["class_schedule", "price_list"])}
    return Flow(name, category, v, additive=False, min_group=1)


def _chart_topics():
    from ..world.pools import CHART_TOPICS

    return CHART_TOPICS


def filter_has_mix(flow: Flow, b: Build, ids: list[int]) -> bool:
    """A filter is only meaningful when some items pass and some do not."""
    p = flow.payload(b, ids)
    total = sum(max(1, len(b.imgs[i].items)) if flow.category in ("receipt", "chart", "table_document") else 1 for i in ids)
    return 0 < len(p.entries) < total


def next_weekday(now: datetime, weekday: str) -> date:
    """The first date strictly after ``now`` falling on ``weekday``."""
    from ..world.pools import WEEKDAYS

    target = WEEKDAYS.index(weekday)
    d = now.date() + timedelta(days=1)
    while d.weekday() != target:
        d += timedelta(days=1)
    return d
