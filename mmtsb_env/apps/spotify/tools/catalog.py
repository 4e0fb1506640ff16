"""Spotify: users, genres, songs and albums (search, show, like)."""

from __future__ import annotations

from typing import Any, Callable
from ....tools import Conflict, InvalidArgument, tool
from ..._common import paginate, public_user, rank_table, search_rank

from ..tables import (
    ALBUMS, ALBUM_LIBRARY, ALBUM_LIKES, ALBUM_REVIEWS, ALBUM_SORTS, APP, ARTISTS, Catalog, DOWNLOADS, GENRES, PUBLIC,
    REQ, SONGS, SONG_LIBRARY, SONG_LIKES, SONG_REVIEWS, SONG_SORTS, USERS, add_new_link, bump, date_filter, finish,
    in_range, link, me, remove_link, require_album, require_song,
)


# --------------------------------------------------------------------------- users and catalog
@tool(app=APP, requires=REQ)
def spotify_search_users(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Search Spotify users by name or email address.

    Args:
        query: words to match against first name, last name and email (empty lists everyone).
        page_index: page to return, from 0.
        page_limit: users per page (1-20).
    """
    rows = search_rank(world.rows(USERS), query, ("first_name", "last_name", "email"))
    return [public_user(r) for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=PUBLIC)
def spotify_show_genres(world) -> list:
    """List every music genre used in the catalog (for the genre filters of the search tools)."""
    return list(GENRES)


def _check_genre(genre: str | None) -> str | None:
    if genre is None or genre == "":
        return None
    g = genre.strip().lower()
    if g not in GENRES:
        raise InvalidArgument(f"unknown genre {genre!r}; spotify_show_genres lists the valid ones")
    return g


@tool(app=APP, requires=PUBLIC)
def spotify_search_songs(
    world,
    query: str | None = "",
    artist_id: int | None = None,
    album_id: int | None = None,
    genre: str | None = None,
    min_release_date: str | None = None,
    max_release_date: str | None = None,
    min_duration: int | None = None,
    max_duration: int | None = None,
    min_rating: float | None = None,
    max_rating: float | None = None,
    min_like_count: int | None = None,
    max_like_count: int | None = None,
    min_play_count: int | None = None,
    max_play_count: int | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Search the song catalog by words in the title, album title or artist names, with filters.

    Results are ranked by how well they match the query unless sort_by is given.

    Args:
        query: words to look for (empty matches every song).
        artist_id: only songs by this artist.
        album_id: only songs of this album.
        genre: only songs of this genre (see spotify_show_genres).
        min_release_date: earliest release date, e.g. 2020-01-01.
        max_release_date: latest release date (inclusive).
        min_duration: shortest duration in seconds.
        max_duration: longest duration in seconds.
        min_rating: lowest average rating (0-5).
        max_rating: highest average rating (0-5).
        min_like_count: fewest likes.
        max_like_count: most likes.
        min_play_count: fewest plays.
        max_play_count: most plays.
        page_index: page to return, from 0.
        page_limit: songs per page (1-20).
        sort_by: one of title, release_date, duration, play_count, rating, like_count, review_count; prefix "-" for descending.
    """
    g = _check_genre(genre)
    when = date_filter(min_release_date, max_release_date, "min_release_date", "max_release_date")
    cat = Catalog(world)
    def keep(s: dict[str, Any]) -> bool:
        return ((artist_id is None or artist_id in s["artist_ids"]) and (album_id is None or s["album_id"] == album_id)
                and (g is None or s["genre"] == g) and when(s["release_date"])
                and in_range(s["duration"], min_duration, max_duration) and in_range(s["rating"], min_rating, max_rating)
                and in_range(s["like_count"], min_like_count, max_like_count)
                and in_range(s["play_count"], min_play_count, max_play_count))

    # the texts join album titles and artist names: indexed while those tables are the base's
    scored = rank_table(world, SONGS, query, cat.search_text, name="spotify.song_text", keep=keep,
                        depends=(ALBUMS, ARTISTS))
    # every sort key is a column of the song row: sort and page the rows, detail only the page
    return [cat.song_detail(s) for s in finish(scored, sort_by, SONG_SORTS, page_index, page_limit)]


@tool(app=APP, requires=PUBLIC)
def spotify_show_song(world, song_id: int) -> dict:
    """Show a song: album, artists, duration (seconds), release date, genre, plays, rating, likes.

    Args:
        song_id: id of the song.
    """
    return Catalog(world).song_detail(require_song(world, song_id))


@tool(app=APP, requires=REQ)
def spotify_show_song_privates(world, song_id: int) -> dict:
    """Show your private relation to a song: liked, reviewed, in your song library, downloaded.

    Args:
        song_id: id of the song.
    """
    require_song(world, song_id)
    uid = me(world)
    return {
        "liked": link(world, SONG_LIKES, uid, "song_id", song_id) is not None,
        "reviewed": link(world, SONG_REVIEWS, uid, "song_id", song_id) is not None,
        "in_song_library": link(world, SONG_LIBRARY, uid, "song_id", song_id) is not None,
        "downloaded": link(world, DOWNLOADS, uid, "song_id", song_id) is not None,
    }


def _like(world: Any, likes: str, items: str, column: str, item_id: int, what: str) -> dict:
    add_new_link(world, likes, me(world), column, item_id, f"you already like this {what} ({column} {item_id})")
    bump(world, items, item_id, "like_count", +1)
    return {"message": f"{what.capitalize()} liked."}


def _unlike(world: Any, likes: str, items: str, column: str, item_id: int, what: str) -> dict:
    nothing = Conflict(f"you have not liked this {what} ({column} {item_id}), so there is nothing to unlike")
    remove_link(world, likes, me(world), column, item_id, nothing)
    bump(world, items, item_id, "like_count", -1)
    return {"message": f"{what.capitalize()} unliked."}


@tool(app=APP, writes=True, requires=REQ)
def spotify_like_song(world, song_id: int) -> dict:
    """Like a song (it then appears in your liked songs).

    Args:
        song_id: id of the song.
    """
    require_song(world, song_id)
    return _like(world, SONG_LIKES, SONGS, "song_id", song_id, "song")


@tool(app=APP, writes=True, requires=REQ)
def spotify_unlike_song(world, song_id: int) -> dict:
    """Remove your like from a song.

    Args:
        song_id: id of the song.
    """
    require_song(world, song_id)
    return _unlike(world, SONG_LIKES, SONGS, "song_id", song_id, "song")


def _linked(
    world: Any, table: str, items: str, column: str, uid: int, stamp: str,
    view: Callable[[dict[str, Any]], dict[str, Any]],
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(linked item, ``view`` of it with the link time under ``stamp``) for the user's links, oldest link first."""
    out = []
    for ln in sorted(world.select(table, user_id=uid), key=lambda r: r["id"]):
        item = world.get(items, ln[column])
        if item is not None:
            out.append((item, {**view(item), stamp: ln["created_at"]}))
    return out


def _linked_songs(world: Any, table: str, uid: int, stamp: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(song, song summary with the link time under ``stamp``) for the user's links."""
    return _linked(world, table, SONGS, "song_id", uid, stamp, Catalog(world).song)


@tool(app=APP, requires=REQ)
def spotify_show_liked_songs(
    world, page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = "-liked_at"
) -> list:
    """List the songs you have liked, most recently liked first by default.

    Args:
        page_index: page to return, from 0.
        page_limit: songs per page (1-20).
        sort_by: liked_at, title or duration; prefix "-" for descending.
    """
    rows = [out for _, out in _linked_songs(world, SONG_LIKES, me(world), "liked_at")]
    return finish(rows, sort_by, ("liked_at", "title", "duration"), page_index, page_limit)


# --------------------------------------------------------------------------- albums
@tool(app=APP, requires=PUBLIC)
def spotify_search_albums(
    world,
    query: str | None = "",
    min_rating: float | None = 0.0,
    max_rating: float | None = 5.0,
    min_release_date: str | None = "1500-01-01",
    max_release_date: str | None = "3000-01-01",
    min_like_count: int | None = 0,
    max_like_count: int | None = None,
    genre: str | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Search albums by words in the title or artist names, with filters.

    Args:
        query: words to look for (empty matches every album).
        min_rating: lowest average rating (0-5).
        max_rating: highest average rating (0-5).
        min_release_date: earliest release date, e.g. 2010-01-01.
        max_release_date: latest release date (inclusive).
        min_like_count: fewest likes.
        max_like_count: most likes.
        genre: only albums of this genre (see spotify_show_genres).
        page_index: page to return, from 0.
        page_limit: albums per page (1-20).
        sort_by: one of title, release_date, rating, like_count, review_count; prefix "-" for descending.
    """
    g = _check_genre(genre)
    when = date_filter(min_release_date, max_release_date, "min_release_date", "max_release_date")
    cat = Catalog(world)
    rows = [
        {**a, "_text": cat.album_search_text(a)}
        for a in world.rows(ALBUMS)
        if (g is None or a["genre"] == g) and when(a["release_date"])
        and in_range(a["rating"], min_rating, max_rating) and in_range(a["like_count"], min_like_count, max_like_count)
    ]
    out = [cat.album(a) for a in search_rank(rows, query, ("_text",))]
    return finish(out, sort_by, ALBUM_SORTS, page_index, page_limit)


@tool(app=APP, requires=PUBLIC)
def spotify_show_album(world, album_id: int) -> dict:
    """Show an album: artists, genre, release date, rating, likes and its song ids in track order.

    Args:
        album_id: id of the album.
    """
    album = require_album(world, album_id)
    return {**Catalog(world).album(album), "shareable_link": f"https://spotify.com/albums/{album_id}"}


@tool(app=APP, requires=REQ)
def spotify_show_album_privates(world, album_id: int) -> dict:
    """Show your private relation to an album: liked, reviewed, in your album library.

    Args:
        album_id: id of the album.
    """
    require_album(world, album_id)
    uid = me(world)
    return {
        "liked": link(world, ALBUM_LIKES, uid, "album_id", album_id) is not None,
        "reviewed": link(world, ALBUM_REVIEWS, uid, "album_id", album_id) is not None,
        "in_album_library": link(world, ALBUM_LIBRARY, uid, "album_id", album_id) is not None,
    }


@tool(app=APP, writes=True, requires=REQ)
def spotify_like_album(world, album_id: int) -> dict:
    """Like an album.

    Args:
        album_id: id of the album.
    """
    require_album(world, album_id)
    return _like(world, ALBUM_LIKES, ALBUMS, "album_id", album_id, "album")


@tool(app=APP, writes=True, requires=REQ)
def spotify_unlike_album(world, album_id: int) -> dict:
    """Remove your like from an album.

    Args:
        album_id: id of the album.
    """
    require_album(world, album_id)
    return _unlike(world, ALBUM_LIKES, ALBUMS, "album_id", album_id, "album")


def _linked_albums(world: Any, table: str, uid: int, stamp: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return _linked(world, table, ALBUMS, "album_id", uid, stamp, Catalog(world).album)


@tool(app=APP, requires=REQ)
def spotify_show_liked_albums(
    world, page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = "-liked_at"
) -> list:
    """List the albums you have liked, most recently liked first by default.

    Args:
        page_index: page to return, from 0.
        page_limit: albums per page (1-20).
        sort_by: liked_at, title, release_date or rating; prefix "-" for descending.
    """
    rows = [out for _, out in _linked_albums(world, ALBUM_LIKES, me(world), "liked_at")]
    return finish(rows, sort_by, ("liked_at", "title", "release_date", "rating"), page_index, page_limit)
