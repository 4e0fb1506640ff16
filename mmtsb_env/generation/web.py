"""Web search needs: a task that also needs an outside fact about what an image shows.

A receipt's store closing time today, a storefront sign's Sunday hours, an event's doors-open
time, an invoice company's late fee, a business card company's office hours, a price-tagged
product's weight: values no image shows and the phone does not hold, which the assistant must
look up with ``web_search_serper``. Each need is one row of :data:`NEEDS` (data): what the user
asks, the query, the line the result carries, and the pages the scenario stages in
``web_search.pages`` -- the page that answers, plus look-alikes a careless reader takes instead.
For events and business cards the look-alikes share the answering page's title and differ only in
a detail the image shows (the same show at another venue; a company of the same name under another
web domain than the card's email), so only an agent that read the image picks the right page
(``Need.by == "content"``); the others still differ in title words (another branch or a separate,
similarly named company; last year's holiday hours or archived terms; the product's 2-pack). The pages are initial rows, so no format
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
    guidance: str  # the user's private note: if asked which page, "...: <answer>"
    draw: Callable[[Build, Img], dict[str, str]]  # the values the pages print ("value": the answer)
    pages: tuple[tuple[str, str, str, str], ...]  # (title, url, snippet, content) of the answering page, then the look-alikes
    by: str = "title"  # what tells the look-alikes apart: their "title" words, or a "content" detail the image shows


PAGE_FIELDS = ("title", "url", "snippet", "content")


# what a question about which page or branch is meant names
PAGE_WORDS = ("page", "branch", "site", "website", "listing", "venue", "domain", "2-pack", "mini", "archived", "separate company")


def clarification(need: Need) -> dict[str, Any]:
    """The user's answer when the assistant asks which page (or branch) it means: the answer its
    private note gives, in its own words (a clarification, as the importer makes of the reference's
    "If the assistant asks which ..." hints)."""
    answer = need.guidance.split(": ", 1)[1]
    return {"answer": answer[:1].upper() + answer[1:], "keywords": list(PAGE_WORDS)}


def _store_hours(b: Build, im: Img) -> dict[str, str]:
    closes = b.rng.sample([17 * 60, 17 * 60 + 30, 18 * 60, 19 * 60, 19 * 60 + 30, 20 * 60, 21 * 60, 21 * 60 + 30, 22 * 60], 3)
    opens = b.rng.choice([7, 8, 9]) * 60
    return {"value": clock(closes[0]), "other": clock(closes[1]), "old": clock(closes[2]),
            "opens": clock(opens), "opens_early": clock(opens - 60)}


def _sunday_hours(b: Build, im: Img) -> dict[str, str]:
    """A storefront sign shows the weekday hours; Sunday's are on the shop's page."""
    closes = b.rng.sample(range(12 * 60 + 30, 18 * 60 + 45, 15), 3)  # 12:30 PM ... 6:30 PM (a sign shows whole hours)
    opens = b.rng.choice([9 * 60 + 30, 10 * 60 + 30, 11 * 60, 11 * 60 + 30, 12 * 60])
    return {"value": clock(closes[0]), "other": clock(closes[1]), "old": clock(closes[2]), "opens": clock(opens)}


_TLDS = ("com", "net", "org", "co.uk", "ca", "io", "de")  # none extends another (".com" in ".com.au")


def _office_hours(b: Build, im: Img) -> dict[str, str]:
    """A business card names the company and prints an email address; its office hours are on its
    site. Companies of the same name abroad have pages of the same title: only the web domain the
    card's email shows tells the right one."""
    closes = b.rng.sample([16 * 60, 16 * 60 + 30, 17 * 60, 17 * 60 + 30, 18 * 60, 18 * 60 + 30], 3)
    domain = str((im.person or {}).get("email", "")).rpartition("@")[2] or f"{_slug(_subject(im))}.com"
    stem, _, tld = domain.partition(".")
    others = b.rng.sample([t for t in _TLDS if t != tld], 2)
    return {"value": clock(closes[0]), "other": clock(closes[1]), "old": clock(closes[2]), "domain": domain,
            "domain_other": f"{stem}.{others[0]}", "domain_old": f"{stem}.{others[1]}"}


def _doors(b: Build, im: Img) -> dict[str, str]:
    """A poster shows the venue; the same show also plays elsewhere, listed under the same title:
    only the venue the poster shows tells the right listing."""
    from ..world import pools

    hh, mm = map(int, (im.time or "19:00").split(":"))
    start = hh * 60 + mm
    early = b.rng.sample([20, 30, 40, 45, 50, 60, 75, 90], 3)
    venue = im.extra["venue"]
    elsewhere = b.rng.sample([v for v in pools.VENUES if v != venue], 2)
    return {"value": clock(start - early[0]), "other": clock(start - early[1]), "old": clock(start - early[2]),
            "venue_slug": _slug(venue), "venue_other": elsewhere[0], "venue_other_slug": _slug(elsewhere[0]),
            "venue_old": elsewhere[1], "venue_old_slug": _slug(elsewhere[1])}


def _late_fee(b: Build, im: Img) -> dict[str, str]:
    fees = [dollars(x / 2) for x in b.rng.sample(range(31, 121, 2), 3)]  # $15.50 ... $60.00, never whole
    return {"value": fees[0], "other": fees[1], "old": fees[2]}


def _weight(b: Build, im: Img) -> dict[str, str]:
    grams = b.rng.sample(range(180, 2400, 15), 2)
    return {"value": f"{grams[0] / 1000:.2f} kg", "other": f"{(2 * grams[0] + 40) / 1000:.2f} kg",
            "old": f"{grams[1] / 1000:.2f} kg"}


def build_pages(b: Build, im: Img, need: Need) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The drawn values (``"value"``: the answer) and the staged pages of ``need`` about ``im``: the
    need's templates filled with those values and the names the image shows (``{name}``: the company
    on a card, else the image's label)."""
    name = _subject(im)
    values = {"name": name, "slug": _slug(name), "venue": im.extra.get("venue", ""), "today": f"{b.now:%A}",
              "updated": f"{b.now:%B %Y}", "last_year": b.now.year - 1, "two_years_ago": b.now.year - 2}
    drawn = need.draw(b, im)
    values.update(drawn)
    return drawn, [{f: t.format(**values) for f, t in zip(PAGE_FIELDS, page)} for page in need.pages]


_SITE = "https://www.{slug}.example"
NEEDS = {n.category: n for n in (
    Need("receipt", "store", "what time {it} closes today", "{label} hours", "{label} closes at {value} today",
         "If the assistant asks which web page or branch you mean: the store with exactly the name on the receipt, "
         "today's regular hours (not another branch or old holiday hours).", _store_hours, (
             ("{name} - hours and location", _SITE + "/hours",
              "{name}: open today ({today}) {opens} - {value}. Regular hours, updated {updated}.",
              "store opening hours closing time open today"),
             ("{name} Express - airport concourse hours", _SITE + "/express",
              "{name} Express, our airport kiosk: open daily {opens_early} - {other}.",
              "branch store opening hours closing time"),
             ("{name} - holiday hours {last_year}", _SITE + "/holidays-{last_year}",
              "Holiday hours, December {last_year} only: {opens} - {old}.",
              "store opening hours closing time holiday"))),
    Need("event_poster", "event", "when the doors open for {it}", "{label} doors open", "{label}: doors open at {value}",
         "If the assistant asks which web page you mean: the listing at the venue on the poster (the same show also "
         "plays at other venues).", _doors, (
             ("{name} - tickets and visitor info", "https://www.{venue_slug}.example/events/{slug}",
              "{name} at {venue}: doors open {value}. Tickets at the box office.",
              "event doors open entry tickets"),
             ("{name} - tickets and visitor info", "https://www.{venue_other_slug}.example/events/{slug}",
              "{name} at {venue_other}: doors open {other}. Tickets at the box office.",
              "event doors open entry tickets"),
             ("{name} - tickets and visitor info", "https://www.{venue_old_slug}.example/events/{slug}",
              "{name} at {venue_old}: doors open {old}. Tickets at the box office.",
              "event doors open entry tickets")), by="content"),
    Need("invoice", "company", "what late fee {it} charges", "{label} late fee", "{label} late fee: {value}",
         "If the assistant asks which web page you mean: the company named exactly as on the invoice, its current "
         "terms (not a similarly named company or archived terms).", _late_fee, (
             ("{name} - billing and payment terms", _SITE + "/billing",
              "Invoices from {name} are due on the date shown. A late fee of {value} applies to payments "
              "received after the due date. Terms updated {updated}.",
              "invoice late fee payment terms billing"),
             ("{name} Group - payment terms", "https://www.{slug}group.example/terms",
              "{name} Group (a separate company) charges a late fee of {other} on overdue invoices.",
              "invoice late fee payment terms"),
             ("{name} - payment terms (archived {two_years_ago})", _SITE + "/billing-{two_years_ago}",
              "Archived terms from {two_years_ago}: a late fee of {old} on overdue invoices.",
              "invoice late fee payment terms archive"))),
    Need("sign", "shop", "what time {it} closes on Sundays", "{label} Sunday hours", "{label} closes at {value} on Sundays",
         "If the assistant asks which web page or branch you mean: the shop named exactly as on the sign, its current "
         "hours (not another branch or an old summer page).", _sunday_hours, (
             ("{name} - opening hours", _SITE + "/hours",
              "{name}: Sunday {opens} - {value}. Updated {updated}.",
              "shop opening hours sunday closing time"),
             ("{name} Express - opening hours", _SITE + "/express",
              "{name} Express, our second shop: Sunday {opens} - {other}.",
              "branch shop opening hours sunday closing time"),
             ("{name} - summer Sunday hours {last_year}", _SITE + "/summer-{last_year}",
              "Summer {last_year} only: Sunday {opens} - {old}.",
              "shop opening hours sunday closing time summer"))),
    Need("business_card", "person's company", "what time {it} closes its office today", "{company} office hours",
         "{company} office closes at {value} today",
         "If the assistant asks which web page you mean: the company whose web domain is the one in the email on the "
         "card (companies of the same name abroad have their own pages).", _office_hours, (
             ("{name} - contact us and office hours", "https://www.{domain}/contact",
              "{name} ({domain}): office open today 8:30 AM - {value}. Updated {updated}.",
              "company office hours contact closing time"),
             ("{name} - contact us and office hours", "https://www.{domain_other}/contact",
              "{name} ({domain_other}): office open today 8:30 AM - {other}. Updated {updated}.",
              "company office hours contact closing time"),
             ("{name} - contact us and office hours", "https://www.{domain_old}/contact",
              "{name} ({domain_old}): office open today 8:30 AM - {old}. Updated {updated}.",
              "company office hours contact closing time")), by="content"),
    Need("price_tag", "product", "how much {it} weighs", "{label} weight", "{label} weighs {value}",
         "If the assistant asks which web page you mean: the single product as on the tag (not a 2-pack or a mini "
         "version).", _weight, (
             ("{name} - product details", "https://www.shopfacts.example/{slug}",
              "{name}: shipping weight {value}. Specifications, dimensions and care instructions.",
              "product specification weight spec"),
             ("{name} (2-pack) - product details", "https://www.shopfacts.example/{slug}-2-pack",
              "{name}, pack of two: shipping weight {other}.",
              "product specification weight spec bundle"),
             ("{name} Mini - product details", "https://www.shopfacts.example/{slug}-mini",
              "{name} Mini, the compact version: shipping weight {old}.",
              "product specification weight spec"))),
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
    first_row, first_lookalike = len(b.entities.get(PAGES, [])), len(b.web_lookalikes)
    answers: set[str] = set()  # the answers drawn so far, and every value their pages print
    printed: set[str] = set()
    # every time an image shows (an event's start, a sign's opening and closing): no page prints one
    shown_times = {canonical_dates(clock(int(h) * 60 + int(m)))
                   for x in b.imgs for t in (x.time, x.extra.get("opens"), x.extra.get("closes"))
                   if isinstance(t, str) and (hm := t.split(":")) and len(hm) == 2 and all(p.isdigit() for p in hm)
                   for h, m in [hm]}
    for i in ids:
        im = b.imgs[i]
        need = NEEDS[im.category]
        names = {"label": im.label, "company": (im.person or {}).get("company", ""),
                 **{k: v for k, v in im.extra.items() if isinstance(v, str)}}
        query = need.query.format(**names)
        if query in staged:
            im.extra["_web"] = staged[query]
            continue
        for _ in range(200):  # a time an image shows, printed on a page, would read as that item's (the judge's F6);
            drawn, pages = build_pages(b, im, need)  # another item's answer on a look-alike page, as a wrong page's
            values = {canonical_dates(v) for v in drawn.values()}
            if not values & shown_times and canonical_dates(drawn["value"]) not in printed | answers:
                break
        answers.add(canonical_dates(drawn["value"]))
        printed |= {canonical_dates(v) for v in drawn.values()}
        value = drawn["value"]
        rows = [b.add_row(PAGES, page) for page in pages]
        said = [v for v in _shown(im) if any(v in p["title"] + p["snippet"] for p in pages)]
        im.extra["_web"] = staged[query] = {"value": value, "query": query, "line": need.line.format(value=value, **names),
                                            "page": rows[0]["id"], "said": said}
        b.web_lookalikes += [{"table": PAGES, "key": r["id"], "of": rows[0]["id"], "by": need.by} for r in rows[1:]]
    _stage_others(b, [b.imgs[i] for i in ids], shown_times | answers)
    _shuffle_ids(b, first_row, first_lookalike, list(staged.values()))


def _shuffle_ids(b: Build, first_row: int, first_lookalike: int, needs: list[dict[str, Any]]) -> None:
    """Deal the ids of the pages just staged (from row ``first_row`` on) out in a drawn order, so a
    search's ties (look-alikes of one title) are not listed answering page first."""
    rows = b.entities[PAGES][first_row:]
    ids = [r["id"] for r in rows]
    dealt = b.rng.sample(ids, len(ids))
    new = dict(zip(ids, dealt))
    for r in rows:
        r["id"] = new[r["id"]]
    b.entities[PAGES][first_row:] = sorted(rows, key=lambda r: r["id"])
    for need in needs:
        need["page"] = new.get(need["page"], need["page"])
    for la in b.web_lookalikes[first_lookalike:]:
        la["key"], la["of"] = new.get(la["key"], la["key"]), new.get(la["of"], la["of"])


def _subject(im: Img) -> str:
    """The name a need's pages are about (the company on a card, else the image's label)."""
    return (im.person or {}).get("company", im.label) if im.category == "business_card" else im.label


def _other_sign(b: Build, im: Img) -> Img:
    """Another shop like the one on the sign ``im`` (only its name is printed on a page; a drawn sign
    would also take one of the few closing hours a scenario's signs keep apart)."""
    import copy

    from ..world import pools

    rng = b.rng
    other = copy.copy(im)
    other.extra = dict(im.extra)
    other.label = b.drafter.fresh(lambda: rng.choice(pools.STORE_SIGNS).format(a=rng.choice(pools.SHOP_WORDS_A),
                                                                               b=rng.choice(pools.SHOP_WORDS_B)))
    return other


def _stage_others(b: Build, imgs: list[Img], shown_times: set[str]) -> None:
    """The web knows other shops, events, companies and products too: for each item looked up, the
    pages (answering and look-alike) of one more of its kind that no image shows (drawn like an image's item, never
    named like one). A search with the need's words but without the names the images give then
    lists strangers beside the user's items, not just the user's items (the red team's F2)."""
    from ..evaluation.similarity import canonical_dates

    taken = {_slug(_subject(im)) for im in b.imgs} | {_slug(str(im.extra.get("venue", ""))) for im in b.imgs}
    for im in imgs:
        other = None
        for _ in range(20):
            try:
                other = _other_sign(b, im) if im.category == "sign" else b.drafter.make(im.category)
            except RuntimeError:  # the pools have no fresh item of this kind left
                break
            if _slug(_subject(other)) not in taken:
                break
            other = None
        if other is None:
            continue
        taken.add(_slug(_subject(other)))
        for _ in range(200):
            drawn, pages = build_pages(b, other, NEEDS[im.category])
            if not {canonical_dates(v) for v in drawn.values()} & shown_times:
                break
        for page in pages:  # its look-alikes too: a search for the need's words finds both kinds alike
            b.add_row(PAGES, page)


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
