"""Spotify: the music catalog (artists, albums, songs), likes, libraries, downloads and follows.

This module holds the tables and the helpers the tool modules share (the base data is in ``data``):

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

from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, Sequence

from ...tools import Conflict, InvalidArgument, NotFound, PermissionDenied, ToolError
from ...world import define_table, parse_datetime
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

PLAN_PRICES = {"monthly": 10.99, "yearly": 109.99}


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
