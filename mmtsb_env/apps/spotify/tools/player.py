"""Spotify music player: the song queue (played in order, in a cycle), play/pause, skip, seek,
loop, shuffle and volume.

The queue is one row per entry in ``spotify.song_queues`` (``position`` from 1); the player
row in ``spotify.music_players`` points at the current entry by its position.
"""

from __future__ import annotations

import random
from typing import Any

from ....tools import Conflict, InvalidArgument, tool
from ..tables import APP, PLAYERS, QUEUE, REQ, SONGS, Catalog, me, require_album, require_song, visible_playlist
from .playlists import playlist_song_ids

_DEFAULT_PLAYER = {"current_position": None, "played_seconds": 0, "is_playing": False, "is_looping": False, "volume": 5}


def _player(world: Any, uid: int) -> dict[str, Any]:
    row = world.get(PLAYERS, uid)
    return row if row is not None else {"user_id": uid, **_DEFAULT_PLAYER}


def _save_player(world: Any, uid: int, **fields: Any) -> None:
    if world.exists(PLAYERS, uid):
        world.update(PLAYERS, uid, **fields)
    else:
        world.insert(PLAYERS, {"user_id": uid, **_DEFAULT_PLAYER, **fields})


def _queue(world: Any, uid: int) -> list[dict[str, Any]]:
    return sorted((r for r in world.rows(QUEUE) if r["user_id"] == uid), key=lambda r: (r["position"], r["id"]))


def _write_queue(world: Any, uid: int, entries: list[tuple[int | None, int]]) -> list[int]:
    """Make the queue hold ``entries`` (existing entry id or None for a new one, song id) in order.

    Only rows whose position changes are written. Returns the entry ids in the new order.
    """
    existing = {r["id"]: r for r in _queue(world, uid)}
    ids = []
    for position, (entry_id, song_id) in enumerate(entries, start=1):
        if entry_id is None:
            entry_id = world.new_id(QUEUE)
            world.insert(QUEUE, {"id": entry_id, "user_id": uid, "song_id": song_id, "position": position})
        elif existing[entry_id]["position"] != position:
            world.update(QUEUE, entry_id, position=position)
        ids.append(entry_id)
    for entry_id in set(existing) - set(ids):
        world.delete(QUEUE, entry_id)
    return ids


def _check_position(position: int, size: int, name: str) -> None:
    if size == 0:
        raise Conflict("the song queue is empty; add music with spotify_add_to_queue or spotify_play_music")
    if not 1 <= position <= size:
        raise InvalidArgument(f"{name} must be between 1 and {size} (the queue has {size} songs), got {position}")


def _current(world: Any, uid: int) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
    player = _player(world, uid)
    queue = _queue(world, uid)
    pos = player["current_position"]
    entry = queue[pos - 1] if pos is not None and 1 <= pos <= len(queue) else None
    return player, queue, entry


def _require_current(world: Any, uid: int) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    player, queue, entry = _current(world, uid)
    if entry is None:
        raise Conflict("no song is loaded in the player; start one with spotify_play_music")
    return player, queue, entry


def _one_source(world: Any, uid: int, song_id: int | None, album_id: int | None, playlist_id: int | None) -> list[int]:
    """Song ids of the single song, album or playlist given."""
    if song_id is not None:
        return [require_song(world, song_id)["id"]]
    if album_id is not None:
        require_album(world, album_id)
        ids = Catalog(world).album_song_ids(album_id)
        if not ids:
            raise Conflict(f"album {album_id} has no songs")
        return ids
    visible_playlist(world, playlist_id, uid)
    ids = playlist_song_ids(world, playlist_id)
    if not ids:
        raise Conflict(f"playlist {playlist_id} has no songs")
    return ids


def _given(**values: Any) -> list[str]:
    return [k for k, v in values.items() if v is not None]


def _append(world: Any, uid: int, song_ids: list[int]) -> int:
    """Append songs to the queue; returns the position of the first appended song."""
    queue = _queue(world, uid)
    _write_queue(world, uid, [(r["id"], r["song_id"]) for r in queue] + [(None, s) for s in song_ids])
    return len(queue) + 1


def _title(world: Any, song_id: int) -> str:
    song = world.get(SONGS, song_id)
    return song["title"] if song else f"song {song_id}"


@tool(app=APP, requires=REQ)
def spotify_show_current_song(world) -> dict:
    """Show the song loaded in the player: details, seconds played, and whether it is playing or looping."""
    uid = me(world)
    player, _, entry = _require_current(world, uid)
    song = require_song(world, entry["song_id"])
    return {**Catalog(world).song(song), "queue_position": entry["position"],
            "played_seconds": player["played_seconds"], "is_playing": player["is_playing"],
            "is_looping": player["is_looping"]}


@tool(app=APP, writes=True, requires=REQ)
def spotify_play_music(
    world,
    song_id: int | None = None,
    album_id: int | None = None,
    playlist_id: int | None = None,
    queue_position: int | None = None,
) -> dict:
    """Start playback. Give at most one of song_id, album_id, playlist_id or queue_position.

    A song, album or playlist is appended to the queue and its first song starts playing;
    queue_position plays the song at that place of the queue; with nothing given, the current
    song resumes where it was paused.

    Args:
        song_id: a song to add to the queue and play.
        album_id: an album whose songs are added to the queue, playing the first.
        playlist_id: a playlist (yours or public) whose songs are added to the queue, playing the first.
        queue_position: position (from 1) of the queued song to play.
    """
    uid = me(world)
    given = _given(song_id=song_id, album_id=album_id, playlist_id=playlist_id, queue_position=queue_position)
    if len(given) > 1:
        raise InvalidArgument(f"give at most one of song_id, album_id, playlist_id, queue_position (got {', '.join(given)})")
    player, queue, entry = _current(world, uid)
    if queue_position is not None:
        _check_position(queue_position, len(queue), "queue_position")
        same = entry is not None and entry["position"] == queue_position
        _save_player(world, uid, current_position=queue_position, is_playing=True,
                     played_seconds=player["played_seconds"] if same else 0)
        target = queue[queue_position - 1]["song_id"]
    elif given:
        first = _append(world, uid, _one_source(world, uid, song_id, album_id, playlist_id))
        _save_player(world, uid, current_position=first, is_playing=True, played_seconds=0)
        target = _queue(world, uid)[first - 1]["song_id"]
    else:
        if not queue:
            raise Conflict("the song queue is empty; pass song_id, album_id or playlist_id to play something")
        if entry is None:
            _save_player(world, uid, current_position=1, is_playing=True, played_seconds=0)
            target = queue[0]["song_id"]
        elif player["is_playing"]:
            raise Conflict(f"{_title(world, entry['song_id'])} is already playing")
        else:
            _save_player(world, uid, is_playing=True)
            target = entry["song_id"]
    return {"message": f"Now playing {_title(world, target)}.", "song_id": target}


@tool(app=APP, writes=True, requires=REQ)
def spotify_pause_music(world) -> dict:
    """Pause the song that is playing (it keeps its place)."""
    uid = me(world)
    player, _, entry = _require_current(world, uid)
    if not player["is_playing"]:
        raise Conflict("the music is already paused; resume it with spotify_play_music")
    _save_player(world, uid, is_playing=False)
    return {"message": "Music paused.", "song_id": entry["song_id"]}


def _skip(world: Any, step: int) -> dict:
    uid = me(world)
    player, queue, entry = _current(world, uid)
    if not queue:
        raise Conflict("the song queue is empty; add music with spotify_add_to_queue or spotify_play_music")
    if entry is None:
        new = 1
    else:
        new = (entry["position"] - 1 + step) % len(queue) + 1
    _save_player(world, uid, current_position=new, played_seconds=0)
    target = queue[new - 1]["song_id"]
    return {"message": f"Switched to {_title(world, target)}.", "song_id": target}


@tool(app=APP, writes=True, requires=REQ)
def spotify_previous_song(world) -> dict:
    """Go back to the previous song of the queue (from the first song it wraps to the last)."""
    return _skip(world, -1)


@tool(app=APP, writes=True, requires=REQ)
def spotify_next_song(world) -> dict:
    """Skip to the next song of the queue (after the last song it wraps to the first)."""
    return _skip(world, +1)


@tool(app=APP, writes=True, requires=REQ)
def spotify_move_song_in_queue(world, current_position: int, new_position: int) -> dict:
    """Move a queued song to another position; the other songs shift to make room.

    Args:
        current_position: where the song is now (from 1).
        new_position: where it should go (from 1).
    """
    uid = me(world)
    player, queue, entry = _current(world, uid)
    _check_position(current_position, len(queue), "current_position")
    _check_position(new_position, len(queue), "new_position")
    order = [(r["id"], r["song_id"]) for r in queue]
    order.insert(new_position - 1, order.pop(current_position - 1))
    ids = _write_queue(world, uid, order)
    if entry is not None:
        _save_player(world, uid, current_position=ids.index(entry["id"]) + 1)
    return {"message": "Song moved.", "song_id": order[new_position - 1][1]}


@tool(app=APP, writes=True, requires=REQ)
def spotify_seek_song(world, seek_seconds: int) -> dict:
    """Jump to a point of the current song, counted in seconds from its start.

    Args:
        seek_seconds: the second to jump to (0 up to the song's duration).
    """
    uid = me(world)
    _, _, entry = _require_current(world, uid)
    duration = require_song(world, entry["song_id"])["duration"]
    if not 0 <= seek_seconds <= duration:
        raise InvalidArgument(f"seek_seconds must be between 0 and {duration} (the song's length), got {seek_seconds}")
    _save_player(world, uid, played_seconds=seek_seconds)
    return {"message": f"Moved to second {seek_seconds}.", "song_id": entry["song_id"]}


@tool(app=APP, writes=True, requires=REQ)
def spotify_loop_song(world, loop: bool) -> dict:
    """Turn repeat of the current song on or off.

    Args:
        loop: true to repeat the current song, false to continue through the queue.
    """
    uid = me(world)
    _require_current(world, uid)
    _save_player(world, uid, is_looping=loop)
    return {"message": "Looping the current song." if loop else "Looping turned off.", "is_looping": loop}


@tool(app=APP, writes=True, requires=REQ)
def spotify_shuffle_song_queue(world) -> dict:
    """Shuffle the queue; the current song moves to the top and keeps playing."""
    uid = me(world)
    player, queue, entry = _current(world, uid)
    if not queue:
        raise Conflict("the song queue is empty; there is nothing to shuffle")
    rest = [(r["id"], r["song_id"]) for r in queue if entry is None or r["id"] != entry["id"]]
    rng = random.Random(f"spotify-shuffle:{uid}:{world.version}:{[s for _, s in rest]}")
    rng.shuffle(rest)
    head = [(entry["id"], entry["song_id"])] if entry is not None else []
    _write_queue(world, uid, head + rest)
    if entry is not None:
        _save_player(world, uid, current_position=1)
    return {"message": "Queue shuffled."}


@tool(app=APP, requires=REQ)
def spotify_show_song_queue(world) -> list:
    """Show the queue in play order, marking the current song and whether it is playing."""
    uid = me(world)
    player, queue, entry = _current(world, uid)
    cat = Catalog(world)
    out = []
    for r in queue:
        song = world.get(SONGS, r["song_id"])
        if song is None:
            continue
        current = entry is not None and r["id"] == entry["id"]
        out.append({**cat.song(song), "position": r["position"], "is_current": current,
                    "is_playing": current and player["is_playing"]})
    return out


@tool(app=APP, writes=True, requires=REQ)
def spotify_add_to_queue(world, song_id: int | None = None, album_id: int | None = None, playlist_id: int | None = None) -> dict:
    """Add a song, every song of an album, or every song of a playlist at the end of the queue.

    Give exactly one of song_id, album_id or playlist_id.

    Args:
        song_id: the song to add.
        album_id: the album whose songs to add.
        playlist_id: the playlist (yours or public) whose songs to add.
    """
    uid = me(world)
    given = _given(song_id=song_id, album_id=album_id, playlist_id=playlist_id)
    if len(given) != 1:
        raise InvalidArgument("give exactly one of song_id, album_id or playlist_id")
    song_ids = _one_source(world, uid, song_id, album_id, playlist_id)
    first = _append(world, uid, song_ids)
    if _player(world, uid)["current_position"] is None:
        _save_player(world, uid, current_position=first, played_seconds=0, is_playing=False)
    return {"message": f"Added {len(song_ids)} song(s) to the queue.", "song_ids": song_ids}


@tool(app=APP, writes=True, requires=REQ)
def spotify_clear_song_queue(world) -> dict:
    """Remove every song from the queue and stop playback."""
    uid = me(world)
    if not _queue(world, uid):
        return {"message": "The queue is already empty."}
    _write_queue(world, uid, [])
    _save_player(world, uid, current_position=None, played_seconds=0, is_playing=False)
    return {"message": "Queue cleared."}


@tool(app=APP, writes=True, requires=REQ)
def spotify_remove_song_from_queue(world, position: int) -> dict:
    """Remove the song at a position of the queue (removing the current song moves on to the next).

    Args:
        position: position of the song in the queue (from 1).
    """
    uid = me(world)
    player, queue, entry = _current(world, uid)
    _check_position(position, len(queue), "position")
    removed = queue[position - 1]
    rest = [(r["id"], r["song_id"]) for r in queue if r["id"] != removed["id"]]
    _write_queue(world, uid, rest)
    if not rest:
        _save_player(world, uid, current_position=None, played_seconds=0, is_playing=False)
    elif entry is not None and entry["id"] == removed["id"]:
        _save_player(world, uid, current_position=position if position <= len(rest) else 1, played_seconds=0)
    elif entry is not None and entry["position"] > position:
        _save_player(world, uid, current_position=entry["position"] - 1)
    return {"message": "Song removed from the queue.", "song_id": removed["song_id"]}


@tool(app=APP, requires=REQ)
def spotify_show_volume(world) -> dict:
    """Show the player's volume level (0 to 10)."""
    return {"volume": _player(world, me(world))["volume"]}


@tool(app=APP, writes=True, requires=REQ)
def spotify_set_volume(world, volume: int) -> dict:
    """Set the player's volume level.

    Args:
        volume: level from 0 (muted) to 10 (loudest).
    """
    if not 0 <= volume <= 10:
        raise InvalidArgument(f"volume must be between 0 and 10, got {volume}")
    _save_player(world, me(world), volume=volume)
    return {"message": f"Volume set to {volume}.", "volume": volume}
