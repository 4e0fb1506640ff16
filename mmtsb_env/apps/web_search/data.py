"""Offline web search: the corpus of web pages ``web_search_serper`` (in ``tools``) ranks with BM25.

The corpus is derived from the base world, once per base world (cached): product pages, seller
and delivery-company pages, artist / album / song / public playlist pages, concert listings of
the artists, public profiles of the people, local businesses, and the current Amazon promo codes.
Scenario-specific pages come from ``world.services["web_pages"]`` (a list of
``{"title", "url", "snippet", "content"}`` dicts) and are ranked together with the corpus.
Everything is deterministic: the same base world and query give the same results.

>>> from mmtsb_env.world import World
>>> from mmtsb_env.world.base import base_world
>>> w = World(base_world(0).layer)
>>> w.services["web_pages"] = [{"title": "Harbor Museum - opening hours", "url": "https://harbor.example/hours",
...                             "snippet": "Open Tuesday to Sunday, 10am to 6pm.", "content": ""}]
>>> search(w, "harbor museum opening hours")[0]["link"]
'https://harbor.example/hours'
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Iterable


from ...tools import InvalidArgument
from ...world.populators import BASE_TIME

APP = "web_search"
MAX_RESULTS = 8


@dataclass(frozen=True)
class WebPage:
    """One page of the offline web."""

    title: str
    url: str
    snippet: str
    content: str = ""

    @classmethod
    def from_dict(cls, page: dict[str, Any]) -> "WebPage":
        if not isinstance(page, dict) or not page.get("title") or not page.get("url"):
            raise InvalidArgument(f"a web page needs at least 'title' and 'url', got {page!r}")
        return cls(str(page["title"]), str(page["url"]), str(page.get("snippet") or ""), str(page.get("content") or ""))


def _slug(text: str) -> str:
    return "-".join("".join(ch if ch.isalnum() else " " for ch in text.lower()).split())


def _money(value: Any) -> str:
    return f"${float(value):,.2f}"


def _rows(tables: dict[str, dict[Any, dict[str, Any]]], name: str) -> list[dict[str, Any]]:
    return list(tables.get(name, {}).values())


# (kind, blurb, words people search with)
_BUSINESS_KINDS = [
    ("Cafe", "Coffee, espresso drinks, pastries and free wifi.", "coffee shop"),
    ("Bakery", "Fresh bread, cakes and custom birthday orders.", "bread cake pastry"),
    ("Dental Care", "General and cosmetic dentistry; new patients welcome.", "dentist teeth cleaning"),
    ("Plumbing", "Licensed plumbers for repairs, leaks and water heaters; same-day service.", "plumber pipe"),
    ("Fitness Club", "Gym with classes, personal training and a pool.", "gym workout"),
    ("Hair Salon", "Cuts, color and styling by appointment or walk-in.", "haircut hairdresser barber"),
    ("Pharmacy", "Prescriptions, vaccines and health products.", "drugstore medicine"),
    ("Veterinary Clinic", "Care for dogs and cats, vaccinations and emergencies.", "vet pet animal"),
    ("Bookstore", "New and used books, author events and a kids corner.", "books bookshop"),
    ("Pizzeria", "Wood-fired pizza, salads and delivery.", "pizza restaurant"),
    ("Sushi Bar", "Fresh sushi, ramen and take-out.", "japanese restaurant"),
    ("Auto Repair", "Oil changes, brakes, tires and inspections.", "mechanic car garage"),
    ("Florist", "Bouquets, plants and same-day flower delivery.", "flowers"),
    ("Museum", "Exhibitions of art and local history; guided tours on weekends.", "gallery exhibition art"),
    ("Yoga Studio", "Vinyasa, yin and beginner yoga classes.", "yoga pilates"),
]
_HOURS = ["Mon-Fri 7am-7pm, Sat-Sun 8am-5pm", "Daily 9am-9pm", "Tue-Sun 10am-6pm, closed Monday",
          "Mon-Sat 8am-6pm, closed Sunday", "Daily 11am-10pm"]


def build_pages(tables: dict[str, dict[Any, dict[str, Any]]]) -> list[WebPage]:
    """The web pages derived from a base world's tables (deterministic)."""
    pages: list[WebPage] = []
    people = {r["id"]: r for r in _rows(tables, "gmail.users")}
    seed_text = json.dumps(sorted((p["id"], p["email"]) for p in people.values())[:10])
    seed = int(hashlib.sha256(seed_text.encode()).hexdigest()[:8], 16)
    rng = random.Random(seed)
    from faker import Faker  # lazy: only the base world build needs it

    fake = Faker("en_US")
    fake.seed_instance(seed)

    # --- Amazon: products, sellers, delivery companies, promo codes
    sellers = {r["id"]: r for r in _rows(tables, "amazon.sellers")}
    for p in _rows(tables, "amazon.products"):
        seller = sellers.get(p.get("seller_id"), {}).get("name", "")
        pages.append(WebPage(
            title=f"{p['name']} | Amazon.com",
            url=f"https://www.amazon.com/dp/B0{int(p['id']):08d}",
            snippet=f"{p.get('description', '')}. {_money(p['price'])} - rated {p.get('rating')} out of 5. "
                    f"Sold by {seller}.",
            content=f"{p.get('product_type', '')} {p.get('color', '')} {seller}",
        ))
    for s in sellers.values():
        pages.append(WebPage(
            title=f"{s['name']} - Seller profile | Amazon.com",
            url=f"https://www.amazon.com/sp?seller={_slug(s['name'])}",
            snippet=f"{s.get('description', '')} Seller rating {s.get('rating')}/5. "
                    f"Contact: {s.get('email', '')}, {s.get('phone_number', '')}.",
        ))
    for d in _rows(tables, "amazon.deliverers"):
        pages.append(WebPage(
            title=f"{d['name']} - Package pickup and delivery",
            url=f"https://www.{_slug(d['name']).replace('-', '')}.com/",
            snippet=f"Schedule a return pickup or track a package with {d['name']}. "
                    f"Customer service: {d.get('phone_number', '')}. Pickup fee {_money(d.get('pickup_fee') or 0)}.",
        ))
    codes = _rows(tables, "amazon.promo_codes")
    if codes:
        listed = "; ".join(f"{c['code']}: {c.get('description', '')}" for c in codes)
        pages.append(WebPage(
            title="Amazon promo codes and coupons this month",
            url="https://www.dealnews.example/amazon-promo-codes",
            snippet=f"Working Amazon coupon codes: {listed}.",
            content="discount coupon deal voucher savings",
        ))

    # --- Spotify: artists, albums, songs, public playlists, concerts
    artists = {r["id"]: r for r in _rows(tables, "spotify.artists")}
    albums = {r["id"]: r for r in _rows(tables, "spotify.albums")}

    def artist_names(ids: Iterable[int]) -> str:
        return ", ".join(artists[i]["name"] for i in ids if i in artists)

    songs_by_album: dict[Any, list[dict[str, Any]]] = {}
    for s in _rows(tables, "spotify.songs"):
        songs_by_album.setdefault(s.get("album_id"), []).append(s)
    for a in artists.values():
        own_albums = [al for al in albums.values() if a["id"] in (al.get("artist_ids") or [])]
        pages.append(WebPage(
            title=f"{a['name']} | Spotify",
            url=f"https://open.spotify.com/artist/{_slug(a['name'])}-{a['id']}",
            snippet=f"{a['name']} is a {a.get('genre', '')} artist with {int(a.get('follower_count') or 0):,} "
                    f"followers. Albums: {', '.join(al['title'] for al in own_albums[:5]) or 'none yet'}.",
            content=" ".join(s["title"] for al in own_albums for s in songs_by_album.get(al["id"], [])),
        ))
    for al in albums.values():
        tracks = sorted(songs_by_album.get(al["id"], []), key=lambda s: s.get("track_number") or 0)
        year = str(al.get("release_date") or "")[:4]
        pages.append(WebPage(
            title=f"{al['title']} - Album by {artist_names(al.get('artist_ids') or [])} | Spotify",
            url=f"https://open.spotify.com/album/{_slug(al['title'])}-{al['id']}",
            snippet=f"{al.get('genre', '')} album released in {year}, {len(tracks)} songs. "
                    f"Rated {al.get('rating')}/5.",
            content=" ".join(s["title"] for s in tracks),
        ))
    for s in _rows(tables, "spotify.songs"):
        album = albums.get(s.get("album_id"), {})
        duration = int(s.get("duration") or 0)
        pages.append(WebPage(
            title=f"{s['title']} - song by {artist_names(s.get('artist_ids') or [])} | Spotify",
            url=f"https://open.spotify.com/track/{_slug(s['title'])}-{s['id']}",
            snippet=f"Track {s.get('track_number')} of the album {album.get('title', '')} "
                    f"({str(s.get('release_date') or '')[:4]}), {duration // 60}:{duration % 60:02d}, "
                    f"{s.get('genre', '')}. Played {int(s.get('play_count') or 0):,} times.",
        ))
    for pl in _rows(tables, "spotify.playlists"):
        if not pl.get("is_public"):
            continue
        owner = people.get(pl.get("user_id"), {})
        pages.append(WebPage(
            title=f"{pl['title']} - playlist by {owner.get('first_name', '')} {owner.get('last_name', '')} | Spotify",
            url=f"https://open.spotify.com/playlist/{_slug(pl['title'])}-{pl['id']}",
            snippet=f"Public playlist with {int(pl.get('like_count') or 0):,} likes, rated {pl.get('rating')}/5.",
        ))
    for a in artists.values():
        for _ in range(rng.randint(0, 2)):
            city = fake.city()
            venue = f"{fake.last_name()} {rng.choice(['Arena', 'Hall', 'Theater', 'Amphitheater', 'Club'])}"
            day = (BASE_TIME + timedelta(days=rng.randint(20, 240))).date()
            pages.append(WebPage(
                title=f"{a['name']} in concert at {venue}, {city} - {day:%B} {day.day}, {day.year}",
                url=f"https://www.ticketline.example/event/{_slug(a['name'])}-{_slug(city)}-{day.isoformat()}",
                snippet=f"{a['name']} ({a.get('genre', '')}) in concert at {venue}, {city} on "
                        f"{day:%A, %B} {day.day}, {day.year}. Doors 7pm. Tickets from ${rng.randint(25, 140)}.",
                content="concert tour tickets show gig live music",
            ))

    # --- people: public profiles
    for p in people.values():
        job = fake.job()
        company = fake.company()
        city = fake.city()
        pages.append(WebPage(
            title=f"{p['first_name']} {p['last_name']} - {job} at {company}",
            url=f"https://www.profiles.example/in/{_slug(p['first_name'] + ' ' + p['last_name'])}-{p['id']}",
            snippet=f"{p['first_name']} {p['last_name']} works as {job} at {company} and lives in {city}.",
            content="profile career experience",
        ))

    # --- local businesses
    for kind, blurb, words in _BUSINESS_KINDS:
        for _ in range(3):
            name = f"{fake.last_name()} {kind}"
            address = fake.address().replace("\n", ", ")
            phone = f"({rng.randint(201, 989)}) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}"
            pages.append(WebPage(
                title=f"{name} - {address.split(', ')[-1]}",
                url=f"https://www.{_slug(name).replace('-', '')}.example/",
                snippet=f"{blurb} {address}. Phone {phone}. Hours: {rng.choice(_HOURS)}. "
                        f"Rated {rng.randint(30, 50) / 10}/5.",
                content=f"{kind.lower()} {words} local business opening hours address phone",
            ))
    return pages


_corpus_cache: dict[int, tuple[Any, list[WebPage], Any]] = {}
_combined_cache: dict[tuple[int, str], tuple[list[WebPage], Any]] = {}
_cache_lock = threading.Lock()


def _page_tokens(page: WebPage) -> list[str]:
    from ...tools.discovery import tokenize

    title = tokenize(page.title)
    return title + title + tokenize(page.snippet) + tokenize(page.content)


def _index(pages: list[WebPage]) -> Any:
    from ...tools.discovery import Bm25Index

    return Bm25Index([_page_tokens(p) for p in pages])


def _base_corpus(world: Any) -> tuple[list[WebPage], Any]:
    tables = getattr(world, "_base", None)
    if tables is None:  # a world-like object without a base layer: derive from what it shows
        tables = {name: {i: r for i, r in enumerate(world.rows(name))} for name in world.table_names()}
        pages = build_pages(tables)
        return pages, _index(pages)
    key = id(tables)
    with _cache_lock:
        cached = _corpus_cache.get(key)
        if cached is None or cached[0] is not tables:
            pages = build_pages(tables)
            cached = (tables, pages, _index(pages))
            if len(_corpus_cache) > 16:
                _corpus_cache.clear()
            _corpus_cache[key] = cached
    return cached[1], cached[2]


def corpus(world: Any) -> tuple[list[WebPage], Any]:
    """Pages searchable from ``world`` (base corpus + scenario pages) and their BM25 index."""
    pages, index = _base_corpus(world)
    extra_raw = (getattr(world, "services", None) or {}).get("web_pages") or []
    if not extra_raw:
        return pages, index
    extra = [WebPage.from_dict(p) for p in extra_raw]
    digest = hashlib.sha256(json.dumps([p.__dict__ for p in extra], sort_keys=True).encode()).hexdigest()
    key = (id(pages), digest)
    with _cache_lock:
        cached = _combined_cache.get(key)
        if cached is None:
            combined = extra + pages  # scenario pages first: they win ties
            cached = (combined, _index(combined))
            if len(_combined_cache) > 256:
                _combined_cache.clear()
            _combined_cache[key] = cached
    return cached


def search(world: Any, query: str, limit: int = MAX_RESULTS) -> list[dict[str, Any]]:
    """Organic results for ``query``: ``{title, link, snippet, position}``, best first."""
    import numpy as np

    from ...tools.discovery import tokenize

    tokens = tokenize(query)
    if not tokens:
        return []
    pages, index = corpus(world)
    scores = index.scores(tokens)
    order = np.argsort(-scores, kind="stable")[:limit]
    results = []
    for i in order:
        if scores[i] <= 0:
            break
        page = pages[i]
        results.append({"title": page.title, "link": page.url, "snippet": page.snippet, "position": len(results) + 1})
    return results
