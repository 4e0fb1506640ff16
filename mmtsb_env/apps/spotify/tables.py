"""Spotify: the music catalog (artists, albums, songs), likes, libraries, downloads and follows.

This module holds the tables, the base data and the helpers the tool modules share:

* ``tools.catalog``   -- users, genres, songs, albums and likes;
* ``tools.library``   -- artists and following, song/album libraries, downloads,
                         recommendations;
* ``tools.playlists`` -- playlists and the reviews of songs, albums and playlists;
* ``tools.player``    -- the music player (current song, queue, volume, loop);
* ``tools.premium``   -- payment cards, premium plans and subscriptions.

Counters shown on catalog rows (``like_count``, ``follower_count``) are stored numbers that the
tools move by one when the user likes/follows; ``rating`` and ``review_count`` are always the
mean and the number of the stored review rows. The acting user is the one logged in to the app
(normally the device owner).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, Sequence

from ...tools import Conflict, InvalidArgument, NotFound, PermissionDenied, ToolError
from ...world import define_table, parse_datetime
from ...world.base import BASE_TIME, BaseBuilder, populator
from .._accounts import define_accounts, logged_in_user
from .._common import now_str, paginate, rank_texts, sort_rows

APP = "spotify"
REQ = ("network", "login:spotify")
PUBLIC = ("network",)

USERS = "spotify.users"
ARTISTS = "spotify.artists"
ALBUMS = "spotify.albums"
SONGS = "spotify.songs"
PLAYLISTS = "spotify.playlists"
PLAYLIST_SONGS = "spotify.playlist_songs"
SONG_LIKES = "spotify.song_likes"
ALBUM_LIKES = "spotify.album_likes"
PLAYLIST_LIKES = "spotify.playlist_likes"
SONG_LIBRARY = "spotify.song_library"
ALBUM_LIBRARY = "spotify.user_library_albums"  # the reference's name
DOWNLOADS = "spotify.downloaded_songs"
FOLLOWS = "spotify.artist_followers"
SONG_REVIEWS = "spotify.song_reviews"
ALBUM_REVIEWS = "spotify.album_reviews"
PLAYLIST_REVIEWS = "spotify.playlist_reviews"
PAYMENT_CARDS = "spotify.payment_cards"
SUBSCRIPTIONS = "spotify.premium_subscriptions"
PLAYERS = "spotify.music_players"
QUEUE = "spotify.song_queues"

define_accounts(APP)

_TS = ("created_at",)
define_table(ARTISTS, columns={"id": None, "name": "", "genre": "", "follower_count": 0, "created_at": None},
             auto_columns=_TS)
define_table(ALBUMS, columns={
    "id": None, "title": "", "genre": "", "artist_ids": [], "release_date": None, "rating": 0.0,
    "like_count": 0, "review_count": 0, "created_at": None,
}, auto_columns=_TS)
define_table(SONGS, columns={
    "id": None, "title": "", "album_id": None, "track_number": None, "artist_ids": [], "duration": 0,
    "release_date": None, "genre": "", "play_count": 0, "rating": 0.0, "like_count": 0, "review_count": 0,
    "created_at": None,
}, auto_columns=_TS)
define_table(PLAYLISTS, columns={
    "id": None, "user_id": None, "title": "", "is_public": False, "rating": 0.0, "like_count": 0,
    "review_count": 0, "created_at": None, "updated_at": None,
}, auto_columns=("created_at", "updated_at"))
define_table(PLAYLIST_SONGS, columns={"id": None, "playlist_id": None, "song_id": None, "created_at": None},
             auto_columns=_TS)
for _table, _fk in ((SONG_LIKES, "song_id"), (ALBUM_LIKES, "album_id"), (PLAYLIST_LIKES, "playlist_id"),
                    (SONG_LIBRARY, "song_id"), (ALBUM_LIBRARY, "album_id"), (DOWNLOADS, "song_id"),
                    (FOLLOWS, "artist_id")):
    define_table(_table, columns={"id": None, "user_id": None, _fk: None, "created_at": None}, auto_columns=_TS)
for _table, _fk in ((SONG_REVIEWS, "song_id"), (ALBUM_REVIEWS, "album_id"), (PLAYLIST_REVIEWS, "playlist_id")):
    define_table(_table, columns={
        "id": None, "user_id": None, _fk: None, "rating": 5, "title": "", "text": "",
        "created_at": None, "updated_at": None,
    }, auto_columns=("created_at", "updated_at"))
define_table(PAYMENT_CARDS, columns={
    "id": None, "user_id": None, "card_name": "", "owner_name": "", "card_number": None,
    "expiry_year": None, "expiry_month": None, "cvv_number": None, "created_at": None,
}, auto_columns=_TS)
define_table(SUBSCRIPTIONS, columns={
    "id": None, "user_id": None, "payment_card_id": None, "plan": "monthly", "amount": 0.0,
    "start_date": None, "end_date": None, "created_at": None,
}, auto_columns=_TS)
define_table(PLAYERS, key="user_id", columns={
    "user_id": None, "current_position": None, "played_seconds": 0, "is_playing": False,
    "is_looping": False, "volume": 5,
})
define_table(QUEUE, columns={"id": None, "user_id": None, "song_id": None, "position": 1})

GENRES = (
    "pop", "rock", "hip-hop", "r&b", "jazz", "classical", "country", "electronic", "indie", "metal",
    "folk", "blues", "reggae", "latin", "soul",
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
PLAN_PRICES = {"monthly": 10.99, "yearly": 109.99}


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


# --------------------------------------------------------------------------- shared helpers
def me(world: Any) -> int:
    """Id of the user logged in to spotify (PermissionDenied when nobody is)."""
    return logged_in_user(world, APP)["id"]


def user_brief(world: Any, user_id: int | None) -> dict[str, Any]:
    user = world.get(USERS, user_id) if user_id is not None else None
    if user is None:
        return {"name": "Deleted user", "email": None}
    return {"name": f"{user['first_name']} {user['last_name']}".strip(), "email": user["email"]}


class Catalog:
    """Name lookups for one call (artists and album titles), built once per call."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self.artists = {r["id"]: r["name"] for r in world.rows(ARTISTS)}
        self.albums = {r["id"]: r["title"] for r in world.rows(ALBUMS)}
        self._album_songs: dict[int, list[int]] | None = None

    def artists_of(self, ids: Sequence[int]) -> list[dict[str, Any]]:
        return [{"id": i, "name": self.artists.get(i, "Unknown artist")} for i in ids]

    def album_song_ids(self, album_id: int) -> list[int]:
        if self._album_songs is None:
            grouped: dict[int, list[tuple[int, int]]] = {}
            for s in self.world.rows(SONGS):
                if s["album_id"] is not None:
                    grouped.setdefault(s["album_id"], []).append((s["track_number"] or 0, s["id"]))
            self._album_songs = {k: [i for _, i in sorted(v)] for k, v in grouped.items()}
        return list(self._album_songs.get(album_id, []))

    def song(self, song: dict[str, Any]) -> dict[str, Any]:
        return {
            "song_id": song["id"], "title": song["title"], "album_id": song["album_id"],
            "album_title": self.albums.get(song["album_id"]) if song["album_id"] is not None else None,
            "duration": song["duration"], "artists": self.artists_of(song["artist_ids"]),
        }

    def song_detail(self, song: dict[str, Any]) -> dict[str, Any]:
        return {
            **self.song(song), "release_date": song["release_date"], "genre": song["genre"],
            "play_count": song["play_count"], "rating": song["rating"], "like_count": song["like_count"],
            "review_count": song["review_count"], "shareable_link": f"https://spotify.com/songs/{song['id']}",
        }

    def album(self, album: dict[str, Any]) -> dict[str, Any]:
        return {
            "album_id": album["id"], "title": album["title"], "genre": album["genre"],
            "artists": self.artists_of(album["artist_ids"]), "rating": album["rating"],
            "like_count": album["like_count"], "review_count": album["review_count"],
            "release_date": album["release_date"], "song_ids": self.album_song_ids(album["id"]),
        }

    def search_text(self, song: dict[str, Any]) -> list[str]:
        album = self.albums.get(song["album_id"]) if song["album_id"] is not None else None
        return [song["title"], album or "", *(self.artists.get(i, "") for i in song["artist_ids"])]

    def album_search_text(self, album: dict[str, Any]) -> list[str]:
        return [album["title"], *(self.artists.get(i, "") for i in album["artist_ids"])]


def rank_by_text(items: Iterable[tuple[dict[str, Any], list[str]]], query: str | None) -> list[dict[str, Any]]:
    """The rows of (row, search words) pairs that match ``query``, best first (the words are not returned)."""
    return rank_texts(items, query)


def artist_out(artist: dict[str, Any]) -> dict[str, Any]:
    return {"artist_id": artist["id"], "name": artist["name"], "genre": artist["genre"],
            "follower_count": artist["follower_count"], "created_at": artist["created_at"]}


def require_song(world: Any, song_id: int) -> dict[str, Any]:
    row = world.get(SONGS, song_id)
    if row is None:
        raise NotFound(f"song with id {song_id} does not exist; find songs with spotify_search_songs")
    return row


def require_album(world: Any, album_id: int) -> dict[str, Any]:
    row = world.get(ALBUMS, album_id)
    if row is None:
        raise NotFound(f"album with id {album_id} does not exist; find albums with spotify_search_albums")
    return row


def require_artist(world: Any, artist_id: int) -> dict[str, Any]:
    row = world.get(ARTISTS, artist_id)
    if row is None:
        raise NotFound(f"artist with id {artist_id} does not exist; find artists with spotify_search_artists")
    return row


def visible_playlist(world: Any, playlist_id: int, user_id: int | None) -> dict[str, Any]:
    """A playlist the user may see: their own or a public one (NotFound otherwise, no leaks)."""
    row = world.get(PLAYLISTS, playlist_id)
    if row is None or not (row["is_public"] or row["user_id"] == user_id):
        raise NotFound(f"playlist with id {playlist_id} does not exist or is private")
    return row


def owned_playlist(world: Any, playlist_id: int, user_id: int) -> dict[str, Any]:
    row = visible_playlist(world, playlist_id, user_id)
    if row["user_id"] != user_id:
        raise PermissionDenied(f"playlist {playlist_id} belongs to someone else; you can only change your own playlists")
    return row


def bump(world: Any, table: str, key: int, column: str, delta: int) -> None:
    row = world.get(table, key)
    world.update(table, key, **{column: max(0, row[column] + delta)})


def link(world: Any, table: str, user_id: int, column: str, value: int) -> dict[str, Any] | None:
    return world.first(table, user_id=user_id, **{column: value})


def add_link(world: Any, table: str, user_id: int, column: str, value: int) -> dict[str, Any]:
    return world.insert(table, {"id": world.new_id(table), "user_id": user_id, column: value,
                                "created_at": now_str(world)})


def add_new_link(world: Any, table: str, user_id: int, column: str, value: int, taken: str) -> dict[str, Any]:
    """:func:`add_link`, or Conflict(``taken``) when the user already has this link."""
    if link(world, table, user_id, column, value) is not None:
        raise Conflict(taken)
    return add_link(world, table, user_id, column, value)


def remove_link(world: Any, table: str, user_id: int, column: str, value: int, missing: ToolError) -> None:
    """Delete the user's link, or raise ``missing`` when there is none."""
    row = link(world, table, user_id, column, value)
    if row is None:
        raise missing
    world.delete(table, row["id"])


def _bound(value: str | None, name: str, upper: bool) -> datetime | None:
    if value is None or value == "":
        return None
    try:
        dt = parse_datetime(value).astimezone(timezone.utc).replace(tzinfo=None)
    except ValueError:
        raise InvalidArgument(f"{name} must be a date like 2024-05-31 or 2024-05-31T18:00:00, got {value!r}") from None
    if upper and len(value.strip()) == 10:  # a bare date includes the whole day
        dt = dt + timedelta(days=1) - timedelta(seconds=1)
    return dt


def date_filter(min_value: str | None, max_value: str | None, min_name: str, max_name: str):
    """A predicate on ISO timestamps for an inclusive [min, max] range given as dates or datetimes."""
    lo = _bound(min_value, min_name, False)
    hi = _bound(max_value, max_name, True)

    def accept(stamp: str | None) -> bool:
        if stamp is None:
            return lo is None and hi is None
        dt = datetime.fromisoformat(stamp)
        return (lo is None or dt >= lo) and (hi is None or dt <= hi)

    return accept


def in_range(value: float, lo: float | None, hi: float | None) -> bool:
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def finish(rows: list[dict[str, Any]], sort_by: str | None, allowed: Sequence[str],
           page_index: int | None, page_limit: int | None) -> list[dict[str, Any]]:
    """Sort (stable, so ties keep relevance order) and return one page."""
    return paginate(sort_rows(rows, sort_by, allowed), page_index, page_limit)


def is_premium(world: Any, user_id: int) -> bool:
    now = now_str(world)
    return any(s["start_date"] <= now < s["end_date"] for s in world.rows(SUBSCRIPTIONS) if s["user_id"] == user_id)


SONG_SORTS = ("title", "release_date", "duration", "play_count", "rating", "like_count", "review_count")
ALBUM_SORTS = ("title", "release_date", "rating", "like_count", "review_count")
ARTIST_SORTS = ("name", "follower_count", "created_at")
