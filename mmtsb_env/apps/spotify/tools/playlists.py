"""Spotify playlists (create, edit, share, like) and reviews of songs, albums and playlists.

Tables and shared helpers live in :mod:`mmtsb_env.apps.spotify.tables`.
"""

from __future__ import annotations

from typing import Any, Callable

from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ..._common import nonblank, now_str, search_rank
from ..tables import (
    ALBUM_REVIEWS, ALBUMS, APP, PLAYLIST_LIKES, PLAYLIST_REVIEWS, PLAYLIST_SONGS, PLAYLISTS, PUBLIC, REQ,
    SONG_REVIEWS, SONGS, USERS, finish, in_range, link, me, owned_playlist, require_album, require_song, user_brief,
    visible_playlist,
)
from .catalog import _like, _unlike


def playlist_song_ids(world: Any, playlist_id: int) -> list[int]:
    """Song ids of a playlist in the order they were added."""
    rows = sorted((r for r in world.rows(PLAYLIST_SONGS) if r["playlist_id"] == playlist_id), key=lambda r: r["id"])
    return [r["song_id"] for r in rows]


def _songs_by_playlist(world: Any) -> dict[int, list[int]]:
    grouped: dict[int, list[tuple[int, int]]] = {}
    for r in world.rows(PLAYLIST_SONGS):
        grouped.setdefault(r["playlist_id"], []).append((r["id"], r["song_id"]))
    return {k: [s for _, s in sorted(v)] for k, v in grouped.items()}


def _playlist_out(world: Any, pl: dict[str, Any], song_ids: list[int]) -> dict[str, Any]:
    return {
        "playlist_id": pl["id"], "title": pl["title"], "is_public": pl["is_public"], "rating": pl["rating"],
        "like_count": pl["like_count"], "review_count": pl["review_count"], "owner": user_brief(world, pl["user_id"]),
        "created_at": pl["created_at"], "song_ids": song_ids,
    }


PLAYLIST_SORTS = ("title", "created_at", "rating", "like_count", "review_count")


@tool(app=APP, requires=REQ)
def spotify_show_playlist_library(
    world,
    query: str | None = "",
    is_public: bool | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List your own playlists, optionally searching titles or keeping only public/private ones.

    Args:
        query: words of the playlist title (empty lists all your playlists).
        is_public: true for only public playlists, false for only private ones.
        page_index: page to return, from 0.
        page_limit: playlists per page (1-20).
        sort_by: title, created_at, rating, like_count or review_count; prefix "-" for descending.
    """
    uid = me(world)
    rows = sorted((p for p in world.rows(PLAYLISTS) if p["user_id"] == uid
                   and (is_public is None or p["is_public"] == is_public)), key=lambda p: p["id"])
    songs = _songs_by_playlist(world)
    out = [_playlist_out(world, p, songs.get(p["id"], [])) for p in search_rank(rows, query, ("title",))]
    return finish(out, sort_by, PLAYLIST_SORTS, page_index, page_limit)


@tool(app=APP, requires=REQ)
def spotify_search_playlists(
    world,
    query: str | None = "",
    min_like_count: int | None = 0,
    max_like_count: int | None = None,
    min_rating: float | None = 0.0,
    max_rating: float | None = 5.0,
    owner_email: str | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Search every public playlist plus your own private ones by words in the title.

    Args:
        query: words of the playlist title (empty matches every visible playlist).
        min_like_count: fewest likes.
        max_like_count: most likes.
        min_rating: lowest average rating (0-5).
        max_rating: highest average rating (0-5).
        owner_email: only playlists owned by the user with this email.
        page_index: page to return, from 0.
        page_limit: playlists per page (1-20).
        sort_by: title, created_at, rating, like_count or review_count; prefix "-" for descending.
    """
    uid = me(world)
    owner_id = None
    if owner_email:
        owner = world.first(USERS, email=owner_email)
        if owner is None:
            raise NotFound(f"no spotify user with email {owner_email}")
        owner_id = owner["id"]
    rows = sorted((
        p for p in world.rows(PLAYLISTS)
        if (p["is_public"] or p["user_id"] == uid) and (owner_id is None or p["user_id"] == owner_id)
        and in_range(p["like_count"], min_like_count, max_like_count) and in_range(p["rating"], min_rating, max_rating)
    ), key=lambda p: p["id"])
    songs = _songs_by_playlist(world)
    out = [_playlist_out(world, p, songs.get(p["id"], [])) for p in search_rank(rows, query, ("title",))]
    return finish(out, sort_by, PLAYLIST_SORTS, page_index, page_limit)


def _check_title(title: str) -> str:
    return nonblank(title, "title").strip()


@tool(app=APP, writes=True, requires=REQ)
def spotify_create_playlist(world, title: str, is_public: bool = False) -> dict:
    """Create an empty playlist in your library.

    Args:
        title: name of the playlist.
        is_public: whether other people can find and see it (private by default).
    """
    now = now_str(world)
    row = world.insert(PLAYLISTS, {
        "id": world.new_id(PLAYLISTS), "user_id": me(world), "title": _check_title(title),
        "is_public": bool(is_public), "created_at": now, "updated_at": now,
    })
    return {"message": "Playlist created.", "playlist_id": row["id"]}


@tool(app=APP, requires=REQ)
def spotify_show_playlist(world, playlist_id: int) -> dict:
    """Show a playlist (yours, or someone else's public one) with its songs in order.

    Args:
        playlist_id: id of the playlist.
    """
    pl = visible_playlist(world, playlist_id, me(world))
    ids = playlist_song_ids(world, playlist_id)
    out = _playlist_out(world, pl, ids)
    del out["song_ids"]
    songs = []
    for sid in ids:
        song = world.get(SONGS, sid)
        if song is not None:
            songs.append({"id": sid, "title": song["title"], "artist_ids": list(song["artist_ids"])})
    return {**out, "shareable_link": f"https://spotify.com/playlists/{playlist_id}", "songs": songs}


@tool(app=APP, writes=True, requires=REQ)
def spotify_update_playlist(world, playlist_id: int, title: str | None = None, is_public: bool | None = None) -> dict:
    """Rename one of your playlists and/or make it public or private.

    Args:
        playlist_id: id of the playlist.
        title: new title.
        is_public: true to make it public, false to make it private.
    """
    owned_playlist(world, playlist_id, me(world))
    changes: dict[str, Any] = {}
    if title is not None:
        changes["title"] = _check_title(title)
    if is_public is not None:
        changes["is_public"] = is_public
    if not changes:
        raise InvalidArgument("nothing to update: give title, is_public or both")
    world.update(PLAYLISTS, playlist_id, **changes, updated_at=now_str(world))
    return {"message": "Playlist updated."}


@tool(app=APP, writes=True, requires=REQ)
def spotify_delete_playlist(world, playlist_id: int) -> dict:
    """Delete one of your playlists (its song list, likes and reviews go with it).

    Args:
        playlist_id: id of the playlist.
    """
    owned_playlist(world, playlist_id, me(world))
    for table in (PLAYLIST_SONGS, PLAYLIST_LIKES, PLAYLIST_REVIEWS):
        for row in world.select(table, playlist_id=playlist_id):
            world.delete(table, row["id"])
    world.delete(PLAYLISTS, playlist_id)
    return {"message": "Playlist deleted."}


@tool(app=APP, requires=REQ)
def spotify_show_playlist_privates(world, playlist_id: int) -> dict:
    """Show your private relation to a playlist: liked, reviewed, and whether it is yours.

    Args:
        playlist_id: id of the playlist.
    """
    uid = me(world)
    pl = visible_playlist(world, playlist_id, uid)
    return {
        "liked": link(world, PLAYLIST_LIKES, uid, "playlist_id", playlist_id) is not None,
        "reviewed": link(world, PLAYLIST_REVIEWS, uid, "playlist_id", playlist_id) is not None,
        "is_owner": pl["user_id"] == uid,
    }


@tool(app=APP, writes=True, requires=REQ)
def spotify_like_playlist(world, playlist_id: int) -> dict:
    """Like a playlist (yours or a public one).

    Args:
        playlist_id: id of the playlist.
    """
    visible_playlist(world, playlist_id, me(world))
    return _like(world, PLAYLIST_LIKES, PLAYLISTS, "playlist_id", playlist_id, "playlist")


@tool(app=APP, writes=True, requires=REQ)
def spotify_unlike_playlist(world, playlist_id: int) -> dict:
    """Remove your like from a playlist.

    Args:
        playlist_id: id of the playlist.
    """
    visible_playlist(world, playlist_id, me(world))
    return _unlike(world, PLAYLIST_LIKES, PLAYLISTS, "playlist_id", playlist_id, "playlist")


@tool(app=APP, requires=REQ)
def spotify_show_liked_playlists(
    world, page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = "-liked_at"
) -> list:
    """List the playlists you have liked, most recently liked first by default.

    Args:
        page_index: page to return, from 0.
        page_limit: playlists per page (1-20).
        sort_by: liked_at, title, rating or like_count; prefix "-" for descending.
    """
    uid = me(world)
    songs = _songs_by_playlist(world)
    rows = []
    for ln in sorted(world.select(PLAYLIST_LIKES, user_id=uid), key=lambda r: r["id"]):
        pl = world.get(PLAYLISTS, ln["playlist_id"])
        if pl is not None and (pl["is_public"] or pl["user_id"] == uid):
            rows.append({**_playlist_out(world, pl, songs.get(pl["id"], [])), "liked_at": ln["created_at"]})
    return finish(rows, sort_by, ("liked_at", "title", "rating", "like_count"), page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def spotify_add_song_to_playlist(world, playlist_id: int, song_id: int) -> dict:
    """Add a song at the end of one of your playlists.

    Args:
        playlist_id: id of the playlist.
        song_id: id of the song.
    """
    owned_playlist(world, playlist_id, me(world))
    require_song(world, song_id)
    if world.first(PLAYLIST_SONGS, playlist_id=playlist_id, song_id=song_id) is not None:
        raise Conflict(f"song {song_id} is already in playlist {playlist_id}")
    now = now_str(world)
    world.insert(PLAYLIST_SONGS, {"id": world.new_id(PLAYLIST_SONGS), "playlist_id": playlist_id,
                                  "song_id": song_id, "created_at": now})
    world.update(PLAYLISTS, playlist_id, updated_at=now)
    return {"message": "Song added to the playlist."}


@tool(app=APP, writes=True, requires=REQ)
def spotify_remove_song_from_playlist(world, playlist_id: int, song_id: int) -> dict:
    """Remove a song from one of your playlists.

    Args:
        playlist_id: id of the playlist.
        song_id: id of the song.
    """
    owned_playlist(world, playlist_id, me(world))
    row = world.first(PLAYLIST_SONGS, playlist_id=playlist_id, song_id=song_id)
    if row is None:
        raise NotFound(f"song {song_id} is not in playlist {playlist_id}")
    world.delete(PLAYLIST_SONGS, row["id"])
    world.update(PLAYLISTS, playlist_id, updated_at=now_str(world))
    return {"message": "Song removed from the playlist."}


# --------------------------------------------------------------------------- reviews
class _Kind:
    """What differs between song, album and playlist reviews."""

    def __init__(self, what: str, table: str, items: str, fk: str, find: Callable[[Any, int, int | None], Any]):
        self.what, self.table, self.items, self.fk, self.find = what, table, items, fk, find

    def out(self, world: Any, review: dict[str, Any]) -> dict[str, Any]:
        return {
            f"{self.what}_review_id": review["id"], self.fk: review[self.fk], "rating": review["rating"],
            "title": review["title"], "text": review["text"], "created_at": review["created_at"],
            "updated_at": review["updated_at"], "user": user_brief(world, review["user_id"]),
        }

    def refresh(self, world: Any, item_id: int) -> None:
        ratings = [r["rating"] for r in world.rows(self.table) if r[self.fk] == item_id]
        world.update(self.items, item_id, review_count=len(ratings),
                     rating=round(sum(ratings) / len(ratings), 2) if ratings else 0.0)

    def review(self, world: Any, review_id: int, uid: int | None) -> dict[str, Any]:
        """A review the user may see (its item must be visible too)."""
        row = world.get(self.table, review_id)
        if row is not None:
            try:
                self.find(world, row[self.fk], uid)
            except NotFound:
                row = None
        if row is None:
            raise NotFound(f"{self.what} review with id {review_id} does not exist")
        return row

    def own_review(self, world: Any, review_id: int) -> dict[str, Any]:
        uid = me(world)
        row = self.review(world, review_id, uid)
        if row["user_id"] != uid:
            raise PermissionDenied(f"{self.what} review {review_id} was written by someone else; you can only change your own reviews")
        return row


def _session_user(world: Any) -> int | None:
    try:
        return me(world)
    except PermissionDenied:
        return None


SONG = _Kind("song", SONG_REVIEWS, SONGS, "song_id", lambda w, i, u: require_song(w, i))
ALBUM = _Kind("album", ALBUM_REVIEWS, ALBUMS, "album_id", lambda w, i, u: require_album(w, i))
PLAYLIST = _Kind("playlist", PLAYLIST_REVIEWS, PLAYLISTS, "playlist_id", visible_playlist)


def _check_rating(rating: int) -> int:
    if not 1 <= rating <= 5:
        raise InvalidArgument(f"rating must be a whole number from 1 to 5, got {rating}")
    return rating


def _list_reviews(world: Any, kind: _Kind, item_id: int, query: str | None, user_email: str | None,
                  min_rating: int | None, max_rating: int | None, page_index: int | None,
                  page_limit: int | None, sort_by: str | None) -> list:
    kind.find(world, item_id, _session_user(world))
    author = None
    if user_email:
        user = world.first(USERS, email=user_email)
        if user is None:
            raise NotFound(f"no spotify user with email {user_email}")
        author = user["id"]
    rows = sorted((r for r in world.rows(kind.table) if r[kind.fk] == item_id
                   and (author is None or r["user_id"] == author)
                   and in_range(r["rating"], min_rating, max_rating)), key=lambda r: r["id"])
    out = [kind.out(world, r) for r in search_rank(rows, query, ("title", "text"))]
    return finish(out, sort_by, ("rating", "created_at", "updated_at"), page_index, page_limit)


def _add_review(world: Any, kind: _Kind, item_id: int, rating: int, title: str | None, text: str | None) -> dict:
    uid = me(world)
    kind.find(world, item_id, uid)
    _check_rating(rating)
    existing = link(world, kind.table, uid, kind.fk, item_id)
    if existing is not None:
        raise Conflict(f"you already reviewed this {kind.what} (review id {existing['id']}); "
                       f"use spotify_update_{kind.what}_review to change it")
    now = now_str(world)
    row = world.insert(kind.table, {
        "id": world.new_id(kind.table), "user_id": uid, kind.fk: item_id, "rating": rating,
        "title": title or "", "text": text or "", "created_at": now, "updated_at": now,
    })
    kind.refresh(world, item_id)
    return {"message": f"{kind.what.capitalize()} reviewed.", f"{kind.what}_review_id": row["id"]}


def _update_review(world: Any, kind: _Kind, review_id: int, rating: int | None, title: str | None,
                   text: str | None) -> dict:
    row = kind.own_review(world, review_id)
    changes: dict[str, Any] = {k: v for k, v in (("title", title), ("text", text)) if v is not None}
    if rating is not None:
        changes["rating"] = _check_rating(rating)
    if not changes:
        raise InvalidArgument("nothing to update: give rating, title or text")
    world.update(kind.table, review_id, **changes, updated_at=now_str(world))
    kind.refresh(world, row[kind.fk])
    return {"message": f"{kind.what.capitalize()} review updated."}


def _delete_review(world: Any, kind: _Kind, review_id: int) -> dict:
    row = kind.own_review(world, review_id)
    world.delete(kind.table, review_id)
    kind.refresh(world, row[kind.fk])
    return {"message": f"{kind.what.capitalize()} review deleted."}


@tool(app=APP, requires=PUBLIC)
def spotify_show_song_reviews(
    world,
    song_id: int,
    query: str | None = "",
    user_email: str | None = None,
    min_rating: int | None = 1,
    max_rating: int | None = 5,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List the reviews of a song, optionally searching their text or filtering by author and rating.

    Args:
        song_id: id of the song.
        query: words of the review title or text (empty lists every review).
        user_email: only the review written by the user with this email.
        min_rating: lowest rating (1-5).
        max_rating: highest rating (1-5).
        page_index: page to return, from 0.
        page_limit: reviews per page (1-20).
        sort_by: rating, created_at or updated_at; prefix "-" for descending.
    """
    return _list_reviews(world, SONG, song_id, query, user_email, min_rating, max_rating, page_index, page_limit, sort_by)


@tool(app=APP, writes=True, requires=REQ)
def spotify_review_song(world, song_id: int, rating: int, title: str | None = "", text: str | None = "") -> dict:
    """Rate a song from 1 to 5 stars, with an optional written review; updates the song's average rating.

    Args:
        song_id: id of the song.
        rating: stars from 1 to 5.
        title: short headline of the review.
        text: the review itself.
    """
    return _add_review(world, SONG, song_id, rating, title, text)


@tool(app=APP, writes=True, requires=REQ)
def spotify_update_song_review(
    world, review_id: int, rating: int | None = None, title: str | None = None, text: str | None = None
) -> dict:
    """Change the rating, title or text of one of your song reviews.

    Args:
        review_id: id of the song review.
        rating: new stars from 1 to 5.
        title: new headline.
        text: new review text.
    """
    return _update_review(world, SONG, review_id, rating, title, text)


@tool(app=APP, writes=True, requires=REQ)
def spotify_delete_song_review(world, review_id: int) -> dict:
    """Delete one of your song reviews; the song's average rating is recomputed.

    Args:
        review_id: id of the song review.
    """
    return _delete_review(world, SONG, review_id)


@tool(app=APP, requires=PUBLIC)
def spotify_show_song_review(world, review_id: int) -> dict:
    """Show one song review.

    Args:
        review_id: id of the song review.
    """
    return SONG.out(world, SONG.review(world, review_id, _session_user(world)))


@tool(app=APP, requires=PUBLIC)
def spotify_show_album_reviews(
    world,
    album_id: int,
    query: str | None = "",
    user_email: str | None = None,
    min_rating: int | None = 1,
    max_rating: int | None = 5,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List the reviews of an album, optionally searching their text or filtering by author and rating.

    Args:
        album_id: id of the album.
        query: words of the review title or text (empty lists every review).
        user_email: only the review written by the user with this email.
        min_rating: lowest rating (1-5).
        max_rating: highest rating (1-5).
        page_index: page to return, from 0.
        page_limit: reviews per page (1-20).
        sort_by: rating, created_at or updated_at; prefix "-" for descending.
    """
    return _list_reviews(world, ALBUM, album_id, query, user_email, min_rating, max_rating, page_index, page_limit, sort_by)


@tool(app=APP, writes=True, requires=REQ)
def spotify_review_album(world, album_id: int, rating: int, title: str | None = "", text: str | None = "") -> dict:
    """Rate an album from 1 to 5 stars, with an optional written review; updates its average rating.

    Args:
        album_id: id of the album.
        rating: stars from 1 to 5.
        title: short headline of the review.
        text: the review itself.
    """
    return _add_review(world, ALBUM, album_id, rating, title, text)


@tool(app=APP, writes=True, requires=REQ)
def spotify_update_album_review(
    world, review_id: int, rating: int | None = None, title: str | None = None, text: str | None = None
) -> dict:
    """Change the rating, title or text of one of your album reviews.

    Args:
        review_id: id of the album review.
        rating: new stars from 1 to 5.
        title: new headline.
        text: new review text.
    """
    return _update_review(world, ALBUM, review_id, rating, title, text)


@tool(app=APP, writes=True, requires=REQ)
def spotify_delete_album_review(world, review_id: int) -> dict:
    """Delete one of your album reviews; the album's average rating is recomputed.

    Args:
        review_id: id of the album review.
    """
    return _delete_review(world, ALBUM, review_id)


@tool(app=APP, requires=PUBLIC)
def spotify_show_album_review(world, review_id: int) -> dict:
    """Show one album review.

    Args:
        review_id: id of the album review.
    """
    return ALBUM.out(world, ALBUM.review(world, review_id, _session_user(world)))


@tool(app=APP, requires=REQ)
def spotify_show_playlist_reviews(
    world,
    playlist_id: int,
    query: str | None = "",
    user_email: str | None = None,
    min_rating: int | None = 1,
    max_rating: int | None = 5,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List the reviews of a playlist (yours or a public one), with optional search and filters.

    Args:
        playlist_id: id of the playlist.
        query: words of the review title or text (empty lists every review).
        user_email: only the review written by the user with this email.
        min_rating: lowest rating (1-5).
        max_rating: highest rating (1-5).
        page_index: page to return, from 0.
        page_limit: reviews per page (1-20).
        sort_by: rating, created_at or updated_at; prefix "-" for descending.
    """
    return _list_reviews(world, PLAYLIST, playlist_id, query, user_email, min_rating, max_rating, page_index,
                         page_limit, sort_by)


@tool(app=APP, writes=True, requires=REQ)
def spotify_review_playlist(world, playlist_id: int, rating: int, title: str | None = "", text: str | None = "") -> dict:
    """Rate a playlist (yours or a public one) from 1 to 5 stars, with an optional written review.

    Args:
        playlist_id: id of the playlist.
        rating: stars from 1 to 5.
        title: short headline of the review.
        text: the review itself.
    """
    return _add_review(world, PLAYLIST, playlist_id, rating, title, text)


@tool(app=APP, writes=True, requires=REQ)
def spotify_update_playlist_review(
    world, review_id: int, rating: int | None = None, title: str | None = None, text: str | None = None
) -> dict:
    """Change the rating, title or text of one of your playlist reviews.

    Args:
        review_id: id of the playlist review.
        rating: new stars from 1 to 5.
        title: new headline.
        text: new review text.
    """
    return _update_review(world, PLAYLIST, review_id, rating, title, text)


@tool(app=APP, writes=True, requires=REQ)
def spotify_delete_playlist_review(world, review_id: int) -> dict:
    """Delete one of your playlist reviews; the playlist's average rating is recomputed.

    Args:
        review_id: id of the playlist review.
    """
    return _delete_review(world, PLAYLIST, review_id)


@tool(app=APP, requires=REQ)
def spotify_show_playlist_review(world, review_id: int) -> dict:
    """Show one playlist review (of your playlist or a public one).

    Args:
        review_id: id of the playlist review.
    """
    return PLAYLIST.out(world, PLAYLIST.review(world, review_id, me(world)))

