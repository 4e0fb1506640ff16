"""Web search needs: a task that also needs an outside fact about what an image shows.

A receipt's store closing time today, a storefront sign's Sunday hours, an event's doors-open
time, an invoice company's late fee, a business card company's office hours, a price-tagged
product's weight: values no image shows and the phone does not hold, which the assistant must
look up with ``web_search_serper``. Each need is one row of :data:`NEEDS` (data): what the user
asks, the query, the line the result carries, and the pages the scenario stages in
``web_search.pages`` -- the page that answers, plus look-alikes a careless reader takes instead
(another branch or a separate, similarly named company; last year's holiday hours or archived
terms; the same show's matinee; the product's 2-pack). The pages are initial rows, so no format
field is needed; the fact is in no image, query or base row, only on the staged page.

:func:`attach` stages the pages for a flow's images (``Img.extra["_web"]``, private: not an image
fact); :func:`enrich` adds the fact to a payload (a line per image, the facts the reply states, the
values an artifact must hold); :func:`lookups` gives the searches a round's solution makes first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .core import Build, Payload, call
from .images import Img, dollars

PAGES = "web_search.pages"
FLOWS = ("aggregate", "compare", "filter", "compute")  # the generic flows (the database flows check stored rows)
WEB_SHARE = 1.0  # of the scenarios whose flow and images allow a need (about a third of all: the reference, 35 %)


def clock(minutes: int) -> str:
    """``1290 -> '9:30 PM'`` (how a web page prints a time)."""
    h, m = divmod(minutes % (24 * 60), 60)
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def _slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@dataclass(frozen=True)
class Need:
    """What to look up about an image of one category, and the pages that answer (or mislead)."""

    category: str
    noun: str  # what the fact is about ("store")
    fact: str  # what to look up ({it}: "that store", "it")
    query: str  # the search ({label}, and the image's extra values)
    line: str  # the payload line ({label}, {value})
    guidance: str  # the user's answer if asked which page
    pages: Callable[[Build, Img], tuple[str, list[dict[str, Any]]]]  # (value, [answering page, look-alikes...])


def _store_hours(b: Build, im: Img) -> tuple[str, list[dict[str, Any]]]:
    rng, name = b.rng, im.label
    closes = rng.sample([17 * 60, 17 * 60 + 30, 18 * 60, 19 * 60, 19 * 60 + 30, 20 * 60, 21 * 60, 21 * 60 + 30, 22 * 60], 3)
    opens = rng.choice([7, 8, 9]) * 60
    today = f"{b.now:%A}"
    site = f"https://www.{_slug(name)}.example"
    return clock(closes[0]), [
        {"title": f"{name} - hours and location", "url": f"{site}/hours",
         "snippet": f"{name}: open today ({today}) {clock(opens)} - {clock(closes[0])}. Regular hours, updated {b.now:%B %Y}.",
         "content": "store opening hours closing time open today"},
        {"title": f"{name} Express - airport concourse hours", "url": f"{site}/express",
         "snippet": f"{name} Express, our airport kiosk: open daily {clock(opens - 60)} - {clock(closes[1])}.",
         "content": "branch store opening hours closing time"},
        {"title": f"{name} - holiday hours {b.now.year - 1}", "url": f"{site}/holidays-{b.now.year - 1}",
         "snippet": f"Holiday hours, December {b.now.year - 1} only: {clock(opens)} - {clock(closes[2])}.",
         "content": "store opening hours closing time holiday"},
    ]


def _sunday_hours(b: Build, im: Img) -> tuple[str, list[dict[str, Any]]]:
    """A storefront sign shows the weekday hours; Sunday's are on the shop's page."""
    rng, name = b.rng, im.label
    closes = rng.sample([13 * 60, 14 * 60, 15 * 60, 15 * 60 + 30, 16 * 60, 17 * 60, 17 * 60 + 30], 3)
    opens = rng.choice([9, 10, 11]) * 60
    site = f"https://www.{_slug(name)}.example"
    weekdays = f"Monday to Saturday {im.extra.get('hours', '').replace('OPEN ', '').lower() or 'as posted'}"
    return clock(closes[0]), [
        {"title": f"{name} - opening hours", "url": f"{site}/hours",
         "snippet": f"{name}: {weekdays}; Sunday {clock(opens)} - {clock(closes[0])}. Updated {b.now:%B %Y}.",
         "content": "shop opening hours sunday closing time"},
        {"title": f"{name} Express - opening hours", "url": f"{site}/express",
         "snippet": f"{name} Express, our second shop: Sunday {clock(opens)} - {clock(closes[1])}.",
         "content": "branch shop opening hours sunday closing time"},
        {"title": f"{name} - summer Sunday hours {b.now.year - 1}", "url": f"{site}/summer-{b.now.year - 1}",
         "snippet": f"Summer {b.now.year - 1} only: Sunday {clock(opens)} - {clock(closes[2])}.",
         "content": "shop opening hours sunday closing time summer"},
    ]


def _office_hours(b: Build, im: Img) -> tuple[str, list[dict[str, Any]]]:
    """A business card names the company; its office hours are on its site."""
    rng, name = b.rng, (im.person or {}).get("company", im.label)
    closes = rng.sample([16 * 60, 16 * 60 + 30, 17 * 60, 17 * 60 + 30, 18 * 60, 18 * 60 + 30], 3)
    site = f"https://www.{_slug(name)}.example"
    return clock(closes[0]), [
        {"title": f"{name} - contact us and office hours", "url": f"{site}/contact",
         "snippet": f"{name} head office: open today 8:30 AM - {clock(closes[0])}. Updated {b.now:%B %Y}.",
         "content": "company office hours contact closing time"},
        {"title": f"{name} Labs - office hours", "url": f"https://www.{_slug(name)}labs.example/contact",
         "snippet": f"{name} Labs (a separate company): office open 9:00 AM - {clock(closes[1])}.",
         "content": "company office hours contact"},
        {"title": f"{name} - holiday office hours {b.now.year - 1}", "url": f"{site}/holidays-{b.now.year - 1}",
         "snippet": f"Holiday season {b.now.year - 1} only: office open 10:00 AM - {clock(closes[2])}.",
         "content": "company office hours holiday"},
    ]


def _doors(b: Build, im: Img) -> tuple[str, list[dict[str, Any]]]:
    rng, name, venue = b.rng, im.label, im.extra["venue"]
    hh, mm = map(int, (im.time or "19:00").split(":"))
    start = hh * 60 + mm
    early = rng.sample([30, 45, 60, 90], 3)
    site = f"https://www.{_slug(venue)}.example"
    return clock(start - early[0]), [
        {"title": f"{name} at {venue} - tickets and visitor info", "url": f"{site}/events/{_slug(name)}",
         "snippet": f"{name} at {venue}: doors open {clock(start - early[0])}, the show starts {clock(start)}.",
         "content": "event doors open entry tickets"},
        {"title": f"{name} family matinee at {venue}", "url": f"{site}/events/{_slug(name)}-matinee",
         "snippet": f"The matinee of {name}: doors open {clock(13 * 60 - early[1])}, the show starts 1:00 PM.",
         "content": "event doors open entry tickets matinee"},
        {"title": f"{name} {b.now.year - 1} at {venue} - recap", "url": f"{site}/events/{_slug(name)}-{b.now.year - 1}",
         "snippet": f"Last year's {name}: doors opened {clock(start - early[2])} and the show began at {clock(start)}.",
         "content": "event doors open archive"},
    ]


def _late_fee(b: Build, im: Img) -> tuple[str, list[dict[str, Any]]]:
    rng, name = b.rng, im.label
    fees = [dollars(x / 2) for x in rng.sample(range(31, 121, 2), 3)]  # $15.50 ... $60.00, never whole
    site = f"https://www.{_slug(name)}.example"
    return fees[0], [
        {"title": f"{name} - billing and payment terms", "url": f"{site}/billing",
         "snippet": f"Invoices from {name} are due on the date shown. A late fee of {fees[0]} applies to payments "
                    f"received after the due date. Terms updated {b.now:%B %Y}.",
         "content": "invoice late fee payment terms billing"},
        {"title": f"{name} Group - payment terms", "url": f"https://www.{_slug(name)}group.example/terms",
         "snippet": f"{name} Group (a separate company) charges a late fee of {fees[1]} on overdue invoices.",
         "content": "invoice late fee payment terms"},
        {"title": f"{name} - payment terms (archived {b.now.year - 2})", "url": f"{site}/billing-{b.now.year - 2}",
         "snippet": f"Archived terms from {b.now.year - 2}: a late fee of {fees[2]} on overdue invoices.",
         "content": "invoice late fee payment terms archive"},
    ]


def _weight(b: Build, im: Img) -> tuple[str, list[dict[str, Any]]]:
    rng, name = b.rng, im.label
    grams = rng.sample(range(180, 2400, 15), 2)
    kg = [f"{g / 1000:.2f} kg" for g in (grams[0], 2 * grams[0] + 40, grams[1])]
    site = f"https://www.shopfacts.example/{_slug(name)}"
    return kg[0], [
        {"title": f"{name} - product details", "url": site,
         "snippet": f"{name}: shipping weight {kg[0]}. Specifications, dimensions and care instructions.",
         "content": "product specification weight spec"},
        {"title": f"{name} (2-pack) - product details", "url": f"{site}-2-pack",
         "snippet": f"{name}, pack of two: shipping weight {kg[1]}.",
         "content": "product specification weight spec bundle"},
        {"title": f"{name} Mini - product details", "url": f"{site}-mini",
         "snippet": f"{name} Mini, the compact version: shipping weight {kg[2]}.",
         "content": "product specification weight spec"},
    ]


NEEDS = {n.category: n for n in (
    Need("receipt", "store", "what time {it} closes today", "{label} hours", "{label} closes at {value} today",
         "If the assistant asks which web page or branch you mean: the store with exactly the name on the receipt, "
         "today's regular hours (not another branch or old holiday hours).", _store_hours),
    Need("event_poster", "event", "when the doors open for {it}", "{label} {venue} doors open", "{label}: doors open at {value}",
         "If the assistant asks which web page you mean: the evening show on the listing, this year's (not a matinee "
         "or last year's edition).", _doors),
    Need("invoice", "company", "what late fee {it} charges", "{label} late fee", "{label} late fee: {value}",
         "If the assistant asks which web page you mean: the company named exactly as on the invoice, its current "
         "terms (not a similarly named company or archived terms).", _late_fee),
    Need("sign", "shop", "what time {it} closes on Sundays", "{label} Sunday hours", "{label} closes at {value} on Sundays",
         "If the assistant asks which web page or branch you mean: the shop named exactly as on the sign, its current "
         "hours (not another branch or an old summer page).", _sunday_hours),
    Need("business_card", "person's company", "what time {it} closes its office today", "{company} office hours",
         "{company} office closes at {value} today",
         "If the assistant asks which web page you mean: the company exactly as on the card, today's hours (not a "
         "similarly named company or old holiday hours).", _office_hours),
    Need("price_tag", "product", "how much {it} weighs", "{label} weight", "{label} weighs {value}",
         "If the assistant asks which web page you mean: the single product as on the tag (not a 2-pack or a mini "
         "version).", _weight),
)}
# (flow, category) pairs with a need: a filter of receipts or invoices keeps line items, not stores or
# companies; cards are not compared, nor signs and cards computed
PAIRS = ({(f, c) for f in FLOWS for c in NEEDS}
         - {("filter", "receipt"), ("filter", "invoice"), ("compare", "business_card"), ("compute", "sign"), ("compute", "business_card")})


def eligible(flow_name: str, category: str) -> bool:
    """Whether a generic flow over images of ``category`` can carry a web need."""
    return (flow_name, category) in PAIRS


def attach(b: Build, ids: list[int]) -> None:
    """Stage the web pages of every image in ``ids`` (the answering page and its look-alikes) and
    record the need on the image (``extra["_web"]``) and the look-alikes (``b.web_lookalikes``).
    Images about the same thing (two cards of one company) share the pages."""
    from ..evaluation.similarity import canonical_dates

    staged: dict[str, dict[str, Any]] = {}
    shown_times = {canonical_dates(x.time) for x in b.imgs if x.time}
    for i in ids:
        im = b.imgs[i]
        need = NEEDS[im.category]
        names = {"label": im.label, "company": (im.person or {}).get("company", ""),
                 **{k: v for k, v in im.extra.items() if isinstance(v, str)}}
        query = need.query.format(**names)
        if query in staged:
            im.extra["_web"] = staged[query]
            continue
        for _ in range(20):  # a time some image shows for another item would read as that item's (the judge's F6)
            value, pages = need.pages(b, im)
            if canonical_dates(value) not in shown_times:
                break
        rows = [b.add_row(PAGES, page) for page in pages]
        said = [v for v in _shown(im) if any(v in p["title"] + p["snippet"] for p in pages)]
        im.extra["_web"] = staged[query] = {"value": value, "query": query, "line": need.line.format(value=value, **names),
                                            "page": rows[0]["id"], "said": said}
        b.web_lookalikes += [{"table": PAGES, "key": r["id"], "of": rows[0]["id"], "by": "title"} for r in rows[1:]]


def _shown(im: Img) -> list[str]:
    return [v for v in (im.label, im.extra.get("venue"), (im.person or {}).get("company")) if isinstance(v, str) and v]


def enrich(p: Payload, imgs: list[Img]) -> Payload:
    """``p`` with the web fact of every image it draws on (its entries' images; a computed number's:
    all of ``imgs``): a line each, the fact among the facts the reply states and the values an
    artifact holds (``web_values``), the search (``web_queries``); what the staged pages also show
    moves from the image-only values to the keys."""
    used = [e["image"] for e in p.entries if e.get("image") is not None] or list(imgs)
    for im in used:
        w = im.extra.get("_web")
        if w is None or w["query"] in p.web_queries:  # two images about one thing: said once
            continue
        p.web_queries.append(w["query"])
        p.lines.append(w["line"])
        p.facts.append(w["value"])
        p.web_values.append(w["value"])
        p.summary += f" {w['line']} (from the web)."
        for v in w["said"]:
            if v in p.image_values:
                p.image_values[:] = [x for x in p.image_values if x != v]
                p.keys.append(v)
    return p


def lookups(b: Build, p: Payload) -> list[dict[str, Any]]:
    """The searches a round makes before writing ``p``: those of its facts the scenario has not
    looked up yet (``b.looked_up``)."""
    steps = []
    for query in p.web_queries:
        if query not in b.looked_up:
            b.looked_up.add(query)
            steps.append(call("web_search_serper", query=query))
    return steps


def ask(flow_name: str, category: str, written: bool) -> str:
    """What the first request adds (after what to do with the result): the winner's fact (compare)
    or every item's, to be told back and, when the result is a text (``written``), written with it."""
    need = NEEDS[category]
    if flow_name == "compare":
        it = "that " + need.noun
    else:
        it = f"each {need.noun} you pick out" if flow_name == "filter" else f"each {need.noun}"
    fact = need.fact.format(it=it)
    if written:
        return f"Please include {fact} as well: look it up online, and tell me too."
    return f"Also look up online {fact} and tell me."
