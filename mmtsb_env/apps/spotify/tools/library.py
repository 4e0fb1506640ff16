"""Spotify artists and following, the song and album libraries, downloads and recommendations.

Tables and shared helpers live in :mod:`mmtsb_env.apps.spotify.tables`.
"""

from __future__ import annotations

from typing import Any

from ....tools import Conflict, NotFound, PermissionDenied, tool
from ..._common import paginate, search_rank
from ..tables import (
    ALBUM_LIBRARY, APP, ARTISTS, DOWNLOADS, FOLLOWS, PUBLIC, REQ, SONG_LIBRARY, SONG_LIKES, SONGS, ARTIST_SORTS,
    Catalog, add_new_link, artist_out, bump, date_filter, finish, in_range, is_premium, link, me, rank_by_text,
    remove_link, require_album, require_artist, require_song,
)
from .catalog import _check_genre, _linked_albums, _linked_songs


# --------------------------------------------------------------------------- artists and following
@tool(app=APP, requires=PUBLIC)
def spotify_search_artists(
    world,
    query: str | None = "",
    genre: str | None = None,
    min_follower_count: int | None = 0,
    max_follower_count: int | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Search artists by name, with genre and follower-count filters.

    Args:
        query: words of the artist name (empty matches every artist).
        genre: only artists of this genre (see spotify_show_genres).
        min_follower_count: fewest followers.
        max_follower_count: most followers.
        page_index: page to return, from 0.
        page_limit: artists per page (1-20).
        sort_by: name, follower_count or created_at; prefix "-" for descending.
    """
    g = _check_genre(genre)
    rows = [a for a in world.rows(ARTISTS) if (g is None or a["genre"] == g)
            and in_range(a["follower_count"], min_follower_count, max_follower_count)]
    out = [artist_out(a) for a in search_rank(rows, query, ("name",))]
    return finish(out, sort_by, ARTIST_SORTS, page_index, page_limit)


@tool(app=APP, requires=PUBLIC)
def spotify_show_artist(world, artist_id: int) -> dict:
    """Show an artist: name, genre and follower count.

    Args:
        artist_id: id of the artist.
    """
    return artist_out(require_artist(world, artist_id))


@tool(app=APP, requires=REQ)
def spotify_show_artist_following(world, artist_id: int) -> dict:
    """Tell whether you follow an artist.

    Args:
        artist_id: id of the artist.
    """
    require_artist(world, artist_id)
    row = link(world, FOLLOWS, me(world), "artist_id", artist_id)
    return {"is_following": row is not None, "followed_at": row["created_at"] if row else None}


@tool(app=APP, requires=REQ)
def spotify_show_following_artists(
    world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = None
) -> list:
    """List the artists you follow, optionally searching their names.

    Args:
        query: words of the artist name (empty lists all you follow).
        page_index: page to return, from 0.
        page_limit: artists per page (1-20).
        sort_by: name, follower_count or followed_at; prefix "-" for descending.
    """
    rows = []
    for ln in sorted(world.select(FOLLOWS, user_id=me(world)), key=lambda r: r["id"]):
        artist = world.get(ARTISTS, ln["artist_id"])
        if artist is not None:
            rows.append({**artist_out(artist), "followed_at": ln["created_at"]})
    rows = search_rank(rows, query, ("name",))
    return finish(rows, sort_by, ("name", "follower_count", "followed_at"), page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def spotify_follow_artist(world, artist_id: int) -> dict:
    """Follow an artist.

    Args:
        artist_id: id of the artist.
    """
    require_artist(world, artist_id)
    add_new_link(world, FOLLOWS, me(world), "artist_id", artist_id, f"you already follow artist {artist_id}")
    bump(world, ARTISTS, artist_id, "follower_count", +1)
    return {"message": "Artist followed."}


@tool(app=APP, writes=True, requires=REQ)
def spotify_unfollow_artist(world, artist_id: int) -> dict:
    """Stop following an artist.

    Args:
        artist_id: id of the artist.
    """
    require_artist(world, artist_id)
    remove_link(world, FOLLOWS, me(world), "artist_id", artist_id, Conflict(f"you do not follow artist {artist_id}"))
    bump(world, ARTISTS, artist_id, "follower_count", -1)
    return {"message": "Artist unfollowed."}


# --------------------------------------------------------------------------- libraries and downloads
def _add_to_library(world: Any, table: str, column: str, item_id: int, what: str) -> dict:
    add_new_link(world, table, me(world), column, item_id, f"{what} {item_id} is already in your {what} library")
    return {"message": f"{what.capitalize()} added to your library."}


def _remove_from_library(world: Any, table: str, column: str, item_id: int, what: str) -> dict:
    missing = NotFound(f"{what} {item_id} is not in your {what} library")
    remove_link(world, table, me(world), column, item_id, missing)
    return {"message": f"{what.capitalize()} removed from your library."}


@tool(app=APP, requires=REQ)
def spotify_show_song_library(
    world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = None
) -> list:
    """List the songs saved in your song library, optionally searching them.

    Args:
        query: words of the title, album or artist names (empty lists the whole library).
        page_index: page to return, from 0.
        page_limit: songs per page (1-20).
        sort_by: added_at, title or duration; prefix "-" for descending.
    """
    cat = Catalog(world)
    pairs = _linked_songs(world, SONG_LIBRARY, me(world), "added_at")
    rows = rank_by_text(((out, cat.search_text(song)) for song, out in pairs), query)
    return finish(rows, sort_by, ("added_at", "title", "duration"), page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def spotify_add_song_to_library(world, song_id: int) -> dict:
    """Save a song to your song library.

    Args:
        song_id: id of the song.
    """
    require_song(world, song_id)
    return _add_to_library(world, SONG_LIBRARY, "song_id", song_id, "song")


@tool(app=APP, writes=True, requires=REQ)
def spotify_remove_song_from_library(world, song_id: int) -> dict:
    """Remove a song from your song library.

    Args:
        song_id: id of the song.
    """
    require_song(world, song_id)
    return _remove_from_library(world, SONG_LIBRARY, "song_id", song_id, "song")


@tool(app=APP, requires=REQ)
def spotify_show_album_library(
    world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = None
) -> list:
    """List the albums saved in your album library, optionally searching them.

    Args:
        query: words of the album title or artist names (empty lists the whole library).
        page_index: page to return, from 0.
        page_limit: albums per page (1-20).
        sort_by: added_at, title, release_date or rating; prefix "-" for descending.
    """
    cat = Catalog(world)
    pairs = _linked_albums(world, ALBUM_LIBRARY, me(world), "added_at")
    rows = rank_by_text(((out, cat.album_search_text(album)) for album, out in pairs), query)
    return finish(rows, sort_by, ("added_at", "title", "release_date", "rating"), page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def spotify_add_album_to_library(world, album_id: int) -> dict:
    """Save an album to your album library.

    Args:
        album_id: id of the album.
    """
    require_album(world, album_id)
    return _add_to_library(world, ALBUM_LIBRARY, "album_id", album_id, "album")


@tool(app=APP, writes=True, requires=REQ)
def spotify_remove_album_from_library(world, album_id: int) -> dict:
    """Remove an album from your album library.

    Args:
        album_id: id of the album.
    """
    require_album(world, album_id)
    return _remove_from_library(world, ALBUM_LIBRARY, "album_id", album_id, "album")


@tool(app=APP, requires=REQ)
def spotify_show_downloaded_songs(
    world,
    query: str | None = "",
    min_downloaded_at: str | None = "1500-01-01",
    max_downloaded_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List the songs downloaded to this device, optionally searching them or filtering by date.

    Args:
        query: words of the title, album or artist names (empty lists all downloads).
        min_downloaded_at: earliest download date, e.g. 2026-01-01.
        max_downloaded_at: latest download date (inclusive).
        page_index: page to return, from 0.
        page_limit: songs per page (1-20).
        sort_by: downloaded_at, title or duration; prefix "-" for descending.
    """
    when = date_filter(min_downloaded_at, max_downloaded_at, "min_downloaded_at", "max_downloaded_at")
    cat = Catalog(world)
    pairs = [(s, o) for s, o in _linked_songs(world, DOWNLOADS, me(world), "downloaded_at") if when(o["downloaded_at"])]
    rows = rank_by_text(((out, cat.search_text(song)) for song, out in pairs), query)
    return finish(rows, sort_by, ("downloaded_at", "title", "duration"), page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def spotify_download_song(world, song_id: int) -> dict:
    """Download a song for offline listening (a premium feature).

    Args:
        song_id: id of the song.
    """
    require_song(world, song_id)
    uid = me(world)
    if not is_premium(world, uid):
        raise PermissionDenied("downloading songs needs an active premium subscription; see spotify_show_premium_plans")
    add_new_link(world, DOWNLOADS, uid, "song_id", song_id, f"song {song_id} is already downloaded")
    return {"message": "Song downloaded."}


@tool(app=APP, writes=True, requires=REQ)
def spotify_remove_downloaded_song(world, song_id: int) -> dict:
    """Delete a downloaded song from this device (the song stays in the catalog).

    Args:
        song_id: id of the song.
    """
    require_song(world, song_id)
    missing = NotFound(f"song {song_id} is not among your downloaded songs")
    remove_link(world, DOWNLOADS, me(world), "song_id", song_id, missing)
    return {"message": "Downloaded song removed."}


# --------------------------------------------------------------------------- recommendations
@tool(app=APP, requires=REQ)
def spotify_show_recommendations(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Recommend songs you have not liked or saved yet, from the artists and genres you listen to.

    Args:
        page_index: page to return, from 0.
        page_limit: songs per page (1-20).
    """
    uid = me(world)
    liked = {r["song_id"] for r in world.rows(SONG_LIKES) if r["user_id"] == uid}
    saved = {r["song_id"] for r in world.rows(SONG_LIBRARY) if r["user_id"] == uid}
    followed = {r["artist_id"] for r in world.rows(FOLLOWS) if r["user_id"] == uid}
    taste: dict[str, int] = {}
    fav_artists: set[int] = set(followed)
    for sid in liked | saved:
        song = world.get(SONGS, sid)
        if song is not None:
            taste[song["genre"]] = taste.get(song["genre"], 0) + 1
            fav_artists.update(song["artist_ids"])
    total = sum(taste.values()) or 1
    scored = []
    for s in world.rows(SONGS):
        if s["id"] in liked or s["id"] in saved:
            continue
        score = taste.get(s["genre"], 0) / total + (1.0 if fav_artists.intersection(s["artist_ids"]) else 0.0)
        scored.append((-score, -s["play_count"], s["id"], s))
    scored.sort(key=lambda t: t[:3])
    cat = Catalog(world)
    page = paginate(scored, page_index, page_limit)
    return [{**cat.song(s), "genre": s["genre"], "play_count": s["play_count"]} for *_, s in page]
