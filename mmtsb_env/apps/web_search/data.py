"""Offline web search: the base world's web pages (rows of ``web_search.pages``, see ``tables``).

The corpus is derived from the base world's own data: product pages, seller and delivery-company
pages, artist / album / song / public playlist pages, concert listings of the artists, public
profiles of the people, local businesses, and the current Amazon promo codes. A scenario adds its
own pages as initial rows of the same table. Deterministic: the same base world gives the same pages.
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import timedelta
from typing import Any, Iterable

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import APP, PAGES


def page(title: str, url: str, snippet: str, content: str = "") -> dict[str, Any]:
    """One web page as a ``web_search.pages`` row (without its id)."""
    return {"title": title, "url": url, "snippet": snippet, "content": content}


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


def build_pages(tables: dict[str, dict[Any, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The web pages derived from a base world's tables (deterministic)."""
    pages: list[dict[str, Any]] = []
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
        pages.append(page(
            title=f"{p['name']} | Amazon.com",
            url=f"https://www.amazon.com/dp/B0{int(p['id']):08d}",
            snippet=f"{p.get('description', '')}. {_money(p['price'])} - rated {p.get('rating')} out of 5. "
                    f"Sold by {seller}.",
            content=f"{p.get('product_type', '')} {p.get('color', '')} {seller}",
        ))
    for s in sellers.values():
        pages.append(page(
            title=f"{s['name']} - Seller profile | Amazon.com",
            url=f"https://www.amazon.com/sp?seller={_slug(s['name'])}",
            snippet=f"{s.get('description', '')} Seller rating {s.get('rating')}/5. "
                    f"Contact: {s.get('email', '')}, {s.get('phone_number', '')}.",
        ))
    for d in _rows(tables, "amazon.deliverers"):
        pages.append(page(
            title=f"{d['name']} - Package pickup and delivery",
            url=f"https://www.{_slug(d['name']).replace('-', '')}.com/",
            snippet=f"Schedule a return pickup or track a package with {d['name']}. "
                    f"Customer service: {d.get('phone_number', '')}. Pickup fee {_money(d.get('pickup_fee') or 0)}.",
        ))
    codes = _rows(tables, "amazon.promo_codes")
    if codes:
        listed = "; ".join(f"{c['code']}: {c.get('description', '')}" for c in codes)
        pages.append(page(
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
        pages.append(page(
            title=f"{a['name']} | Spotify",
            url=f"https://open.spotify.com/artist/{_slug(a['name'])}-{a['id']}",
            snippet=f"{a['name']} is a {a.get('genre', '')} artist with {int(a.get('follower_count') or 0):,} "
                    f"followers. Albums: {', '.join(al['title'] for al in own_albums[:5]) or 'none yet'}.",
            content=" ".join(s["title"] for al in own_albums for s in songs_by_album.get(al["id"], [])),
        ))
    for al in albums.values():
        tracks = sorted(songs_by_album.get(al["id"], []), key=lambda s: s.get("track_number") or 0)
        year = str(al.get("release_date") or "")[:4]
        pages.append(page(
            title=f"{al['title']} - Album by {artist_names(al.get('artist_ids') or [])} | Spotify",
            url=f"https://open.spotify.com/album/{_slug(al['title'])}-{al['id']}",
            snippet=f"{al.get('genre', '')} album released in {year}, {len(tracks)} songs. "
                    f"Rated {al.get('rating')}/5.",
            content=" ".join(s["title"] for s in tracks),
        ))
    for s in _rows(tables, "spotify.songs"):
        album = albums.get(s.get("album_id"), {})
        duration = int(s.get("duration") or 0)
        pages.append(page(
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
        pages.append(page(
            title=f"{pl['title']} - playlist by {owner.get('first_name', '')} {owner.get('last_name', '')} | Spotify",
            url=f"https://open.spotify.com/playlist/{_slug(pl['title'])}-{pl['id']}",
            snippet=f"Public playlist with {int(pl.get('like_count') or 0):,} likes, rated {pl.get('rating')}/5.",
        ))
    for a in artists.values():
        for _ in range(rng.randint(0, 2)):
            city = fake.city()
            venue = f"{fake.last_name()} {rng.choice(['Arena', 'Hall', 'Theater', 'Amphitheater', 'Club'])}"
            day = (BASE_TIME + timedelta(days=rng.randint(20, 240))).date()
            pages.append(page(
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
        pages.append(page(
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
            pages.append(page(
                title=f"{name} - {address.split(', ')[-1]}",
                url=f"https://www.{_slug(name).replace('-', '')}.example/",
                snippet=f"{blurb} {address}. Phone {phone}. Hours: {rng.choice(_HOURS)}. "
                        f"Rated {rng.randint(30, 50) / 10}/5.",
                content=f"{kind.lower()} {words} local business opening hours address phone",
            ))
    return pages


@populator(APP, order=90)  # after every app whose rows the pages describe
def _populate(b: BaseBuilder) -> None:
    for page in build_pages(b.rows):
        b.add(PAGES, page)
