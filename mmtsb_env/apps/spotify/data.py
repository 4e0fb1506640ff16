"""Spotify base data: artists, albums, songs, users' playlists, likes, libraries, downloads, follows and reviews."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any, Iterable

from ...world.populators import BASE_TIME, BaseBuilder, populator
from .tables import (
    ALBUMS, ALBUM_LIBRARY, ALBUM_LIKES, ALBUM_REVIEWS, APP, ARTISTS, DOWNLOADS, FOLLOWS, GENRES, PAYMENT_CARDS,
    PLAN_PRICES, PLAYERS, PLAYLISTS, PLAYLIST_LIKES, PLAYLIST_REVIEWS, PLAYLIST_SONGS, QUEUE, SONGS, SONG_LIBRARY, SONG_LIKES,
    SONG_REVIEWS, SUBSCRIPTIONS,
)


# --------------------------------------------------------------------------- base data
_FIRST = (
    "Lily", "Jasper", "Nova", "Aria", "Felix", "Luna", "Ethan", "Zoey", "Isabella", "Lucas", "Seraphina",
    "Dylan", "Grace", "Emily", "Mila", "Theo", "Ivy", "Oscar", "Ruby", "Silas", "Hazel", "Miles", "Nina",
    "Owen", "Cleo", "Jonah", "Stella", "Rex", "Wren", "Caleb", "Iris", "Leo",
)
_LAST = (
    "Moon", "Skye", "Sterling", "Blackwood", "Starlight", "Wallace", "James", "Cruz", "Grey", "Dawn",
    "Stone", "Harrison", "Rivers", "Vale", "Frost", "Hart", "Reed", "Monroe", "Lane", "Fox", "Knight",
    "Rowe", "Winter", "Blake", "Sloane", "Park", "Quinn", "Hale",
)
_ADJ = (
    "Midnight", "Golden", "Silent", "Electric", "Broken", "Velvet", "Crimson", "Neon", "Endless", "Hidden",
    "Wild", "Fading", "Burning", "Frozen", "Lonely", "Shattered", "Sweet", "Distant", "Restless", "Silver",
    "Hollow", "Radiant", "Secret", "Falling", "Fragile", "Faded", "Bitter", "Gentle", "Blue", "Scarlet",
)
_NOUN = (
    "Rain", "Heart", "Dreams", "Skies", "Echoes", "Highway", "Ocean", "Fire", "Shadows", "Memories",
    "Horizon", "Stars", "River", "City", "Summer", "Night", "Whispers", "Lights", "Garden", "Storm", "Moon",
    "Road", "Waves", "Letters", "Mirror", "Thunder", "Roses", "Winter", "Paradise", "Silence",
)
_BANDS = (
    "The Velvet Echoes", "Violet Cascade", "Neon Harbor", "The Paper Kites Club", "Static Bloom",
    "Glass Animals Parade", "Copper Lantern", "The Midnight Owls", "Midnight Owl", "Silver Tongues",
    "Crimson Tide Collective", "Hollow Pines", "The Wandering Sparks", "Echo Valley", "Northern Drift",
    "Saltwater Saints",
)
_PLAYLIST_WORDS = (
    "Vibes", "Mix", "Anthems", "Classics", "Favorites", "Essentials", "Jams", "Hits", "Grooves", "Sessions",
)
_OWNER_PLAYLISTS = (
    ("Road Trip Mix", True), ("Road Trip Mix 2", False), ("Workout Energy", True), ("Chill Evenings", True),
    ("Focus Flow", False), ("Rainy Day Jazz", True), ("Party Starters", True), ("Sleep Sounds", False),
)
_REVIEW_TITLES = {
    1: ("Not for me", "Skipped it", "Disappointing"),
    2: ("Forgettable", "Had potential", "Overrated"),
    3: ("Decent listen", "Mixed feelings", "Grows on you, slowly"),
    4: ("Really solid", "Great vibes", "On repeat this week"),
    5: ("Masterpiece", "Absolute banger", "A hidden gem"),
}
_REVIEW_BITS = (
    "The production is crisp.", "Vocals carry the whole thing.", "A bit too long for my taste.",
    "Perfect for late night drives.", "The chorus is stuck in my head.", "Lyrics feel generic.",
    "The bass line is incredible.", "Not as good as their earlier work.", "Great for focusing.",
    "I keep coming back to it.",
)


def _iso(dt: datetime) -> str:
    return dt.replace(microsecond=0).isoformat()


@populator(APP, order=30)
def _populate(b: BaseBuilder) -> None:
    # A generator of our own, seeded from the world seed, keeps the catalog stable when other
    # domains add or remove populators (b.rng is shared by every app).
    rng = random.Random(f"spotify:{b.seed}")
    base = BASE_TIME.replace(tzinfo=None)
    owner = b.supervisor.id
    other_ids = [p.id for p in b.people if p.id != owner]

    def past(max_days: int, min_days: int = 1) -> str:
        return _iso(base - timedelta(seconds=rng.randint(min_days * 86400, max_days * 86400)))

    def add(table: str, row: dict[str, Any]) -> None:
        b.add(table, row)

    # Artists: people-like names, bands, and a few deliberate look-alikes.
    names: list[str] = list(_BANDS)
    seen = set(names)
    while len(names) < 60:
        name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    names += ["Nova Harmony", "Nova Harmonie", "Luna Starlight", "Luna Star"]
    artists = []
    for i, name in enumerate(names, start=1):
        genre = GENRES[i % len(GENRES)] if i <= len(GENRES) else rng.choice(GENRES)
        artists.append({"id": i, "name": name, "genre": genre})
        add(ARTISTS, {"id": i, "name": name, "genre": genre, "follower_count": rng.randint(800, 2_500_000),
                      "created_at": past(3000, 900)})

    titles_used: set[str] = set()

    def fresh_title(two_words_only: bool = False) -> str:
        while True:
            a, n, n2 = rng.choice(_ADJ), rng.choice(_NOUN), rng.choice(_NOUN)
            form = 0 if two_words_only else rng.randrange(4)
            title = (f"{a} {n}", f"{n} of {n2}", f"The {a} {n}", f"{a} {n} and {n2}")[form]
            if title not in titles_used and n != n2:
                titles_used.add(title)
                return title

    # Albums (2 per artist on average) and their songs; then singles without an album.
    song_id = 0
    album_id = 0
    album_rows: list[dict[str, Any]] = []
    song_rows: list[dict[str, Any]] = []
    album_counts = [2] * len(artists)
    for i in rng.sample(range(len(artists)), 18):
        album_counts[i] += 1 if i % 2 else -1
    for artist, n_albums in zip(artists, album_counts):
        for _ in range(n_albums):
            album_id += 1
            released = datetime(1995, 1, 1) + timedelta(days=rng.randint(0, 11200))
            album = {"id": album_id, "title": fresh_title(True), "genre": artist["genre"],
                     "artist_ids": [artist["id"]], "release_date": _iso(released),
                     "like_count": rng.randint(0, 40_000), "created_at": _iso(released)}
            album_rows.append(album)
            for track in range(1, rng.randint(3, 5) + 1):
                song_id += 1
                ids = [artist["id"]]
                if rng.random() < 0.15:
                    ids.append(rng.choice([a["id"] for a in artists if a["id"] != artist["id"]]))
                title_track = track == 1 and rng.random() < 0.2  # shares the album's title
                song_rows.append({"id": song_id, "title": album["title"] if title_track else fresh_title(),
                                  "album_id": album_id,
                                  "track_number": track, "artist_ids": ids,
                                  "duration": rng.randint(125, 420), "release_date": album["release_date"],
                                  "genre": artist["genre"]})
    for _ in range(48):
        song_id += 1
        artist = rng.choice(artists)
        released = datetime(2010, 1, 1) + timedelta(days=rng.randint(0, 5800))
        song_rows.append({"id": song_id, "title": fresh_title(), "album_id": None, "track_number": None,
                          "artist_ids": [artist["id"]], "duration": rng.randint(125, 420),
                          "release_date": _iso(released), "genre": artist["genre"]})
    # Near-duplicates: the same title by another artist, and acoustic/live versions.
    for src in rng.sample(song_rows[:400], 12):
        song_id += 1
        other = rng.choice(artists)
        variant = dict(src, id=song_id, album_id=None, track_number=None, artist_ids=[other["id"]],
                       genre=other["genre"], duration=src["duration"] + rng.randint(-20, 20))
        if song_id % 2:
            variant["title"] = src["title"] + rng.choice((" (Acoustic)", " (Live)", " - Remastered"))
            variant["artist_ids"] = list(src["artist_ids"])
            variant["genre"] = src["genre"]
        song_rows.append(variant)

    # Reviews (the stored rating is the mean of these rows).
    review_id = {SONG_REVIEWS: 0, ALBUM_REVIEWS: 0, PLAYLIST_REVIEWS: 0}

    def add_reviews(table: str, fk: str, item: dict[str, Any], k: int, exclude: int | None = None) -> None:
        ratings = []
        pool = [u for u in other_ids if u != exclude]
        for uid in rng.sample(pool, k):
            rating = rng.choice((1, 2, 3, 3, 4, 4, 4, 5, 5, 5))
            review_id[table] += 1
            when = past(700)
            add(table, {"id": review_id[table], "user_id": uid, fk: item["id"], "rating": rating,
                        "title": rng.choice(_REVIEW_TITLES[rating]),
                        "text": " ".join(rng.sample(_REVIEW_BITS, rng.randint(1, 3))),
                        "created_at": when, "updated_at": when})
            ratings.append(rating)
        item["rating"] = round(sum(ratings) / len(ratings), 2) if ratings else 0.0
        item["review_count"] = len(ratings)

    for album in album_rows:
        add_reviews(ALBUM_REVIEWS, "album_id", album, rng.choice((0, 0, 1, 2, 3)))
        add(ALBUMS, album)
    for song in song_rows:
        add_reviews(SONG_REVIEWS, "song_id", song, rng.choice((0, 0, 1, 1, 2, 3)))
        song["play_count"] = int(rng.paretovariate(1.2) * 900)
        song["like_count"] = rng.randint(0, 25_000)
        song["created_at"] = song["release_date"]
        add(SONGS, song)
    n_songs = len(song_rows)

    # Playlists: the owner's (public and private) and other people's.
    playlist_rows: list[dict[str, Any]] = []
    for title, public in _OWNER_PLAYLISTS:
        playlist_rows.append({"id": len(playlist_rows) + 1, "user_id": owner, "title": title, "is_public": public})
    playlist_titles: set[str] = set()
    while len(playlist_rows) < 100:
        title = f"{rng.choice(_ADJ)} {rng.choice(_NOUN)} {rng.choice(_PLAYLIST_WORDS)}"
        if title in playlist_titles:
            continue
        playlist_titles.add(title)
        playlist_rows.append({"id": len(playlist_rows) + 1, "user_id": rng.choice(other_ids), "title": title,
                              "is_public": rng.random() < 0.75})
    link_id = 0
    for pl in playlist_rows:
        created = past(600, 30)
        pl["created_at"] = pl["updated_at"] = created
        pl["like_count"] = rng.randint(0, 400) if pl["is_public"] else 0
        if pl["is_public"]:
            add_reviews(PLAYLIST_REVIEWS, "playlist_id", pl, rng.choice((0, 0, 1, 2)), exclude=pl["user_id"])
        add(PLAYLISTS, pl)
        for sid in sorted(rng.sample(range(1, n_songs + 1), rng.randint(5, 14))):
            link_id += 1
            add(PLAYLIST_SONGS, {"id": link_id, "playlist_id": pl["id"], "song_id": sid, "created_at": created})

    # The owner's likes, libraries, downloads and follows (counted in the stored counters).
    def owner_links(table: str, fk: str, ids: Iterable[int]) -> None:
        for i, item in enumerate(dict.fromkeys(ids), start=1):
            add(table, {"id": i, "user_id": owner, fk: item, "created_at": past(400)})

    liked_songs = rng.sample(range(1, n_songs + 1), 26)
    owner_links(SONG_LIKES, "song_id", liked_songs)
    owner_links(SONG_LIBRARY, "song_id", rng.sample(liked_songs, 14) + rng.sample(range(1, n_songs + 1), 16))
    owner_links(DOWNLOADS, "song_id", rng.sample(liked_songs, 12))
    liked_albums = rng.sample(range(1, len(album_rows) + 1), 7)
    owner_links(ALBUM_LIKES, "album_id", liked_albums)
    owner_links(ALBUM_LIBRARY, "album_id", liked_albums[:4] + rng.sample(range(1, len(album_rows) + 1), 4))
    others_public = [p["id"] for p in playlist_rows if p["is_public"] and p["user_id"] != owner]
    owner_links(PLAYLIST_LIKES, "playlist_id", rng.sample(others_public, 5))
    owner_links(FOLLOWS, "artist_id", rng.sample(range(1, len(artists) + 1), 10))

    # A few reviews written by the owner.
    for table, fk, pool in ((SONG_REVIEWS, "song_id", song_rows[:300]), (ALBUM_REVIEWS, "album_id", album_rows)):
        for item in rng.sample(pool, 3):
            review_id[table] += 1
            rating = rng.randint(2, 5)
            when = past(200)
            add(table, {"id": review_id[table], "user_id": owner, fk: item["id"], "rating": rating,
                        "title": rng.choice(_REVIEW_TITLES[rating]), "text": rng.choice(_REVIEW_BITS),
                        "created_at": when, "updated_at": when})
            spec_table = SONGS if table == SONG_REVIEWS else ALBUMS
            row = b.rows[spec_table][item["id"]]
            total = row["rating"] * row["review_count"] + rating
            row["review_count"] += 1
            row["rating"] = round(total / row["review_count"], 2)

    # Payment cards and premium history.
    owner_name = b.supervisor.full_name
    card_id = 0
    for uid, name, kinds in [(owner, owner_name, ("Visa Everyday", "Mastercard Travel"))] + [
        (p.id, p.full_name, ("Personal card",)) for p in b.people[1:13]
    ]:
        for card_name in kinds:
            card_id += 1
            add(PAYMENT_CARDS, {
                "id": card_id, "user_id": uid, "card_name": card_name, "owner_name": name,
                "card_number": rng.randint(4_000_000_000_000_000, 5_599_999_999_999_999),
                "expiry_year": base.year + rng.randint(1, 4), "expiry_month": rng.randint(1, 12),
                "cvv_number": rng.randint(100, 999), "created_at": past(800, 300),
            })
    add(SUBSCRIPTIONS, {"id": 1, "user_id": owner, "payment_card_id": 1, "plan": "monthly",
                        "amount": PLAN_PRICES["monthly"], "start_date": "2025-06-01T09:12:44",
                        "end_date": "2025-07-01T09:12:44", "created_at": "2025-06-01T09:12:44"})
    add(SUBSCRIPTIONS, {"id": 2, "user_id": owner, "payment_card_id": 2, "plan": "yearly",
                        "amount": PLAN_PRICES["yearly"], "start_date": "2025-09-15T18:30:02",
                        "end_date": "2026-09-15T18:30:02", "created_at": "2025-09-15T18:30:02"})
    for sid, uid in enumerate((2, 3, 4), start=3):
        add(SUBSCRIPTIONS, {"id": sid, "user_id": uid, "payment_card_id": sid, "plan": "monthly",
                            "amount": PLAN_PRICES["monthly"], "start_date": "2026-02-10T08:00:00",
                            "end_date": "2026-03-10T08:00:00", "created_at": "2026-02-10T08:00:00"})

    # The owner's music player: a queue of eight songs, the third one playing.
    queue_songs = rng.sample(liked_songs, 4) + rng.sample(range(1, n_songs + 1), 4)
    for pos, sid in enumerate(queue_songs, start=1):
        add(QUEUE, {"id": pos, "user_id": owner, "song_id": sid, "position": pos})
    add(PLAYERS, {"user_id": owner, "current_position": 3, "played_seconds": 47, "is_playing": True,
                  "is_looping": False, "volume": 6})
