"""Spotify: playlist, review, playback and queue CRUD (medium); player and reviews by entity
(compact); player / discover / library (mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

P = "spotify_"

_PLAYBACK = dict(current="show_current_song", play="play_music", pause="pause_music", previous="previous_song",
                 next="next_song", seek="seek_song", loop="loop_song", show_volume="show_volume",
                 set_volume="set_volume")
_QUEUE = dict(show_queue="show_song_queue", add_to_queue="add_to_queue", move_in_queue="move_song_in_queue",
              remove_from_queue="remove_song_from_queue", clear_queue="clear_song_queue",
              shuffle_queue="shuffle_song_queue")
_PLAYLIST = dict(create="create_playlist", update="update_playlist", delete="delete_playlist",
                 add_song="add_song_to_playlist", remove_song="remove_song_from_playlist")


def _review(entity: str) -> dict[str, str]:
    return dict(write=f"review_{entity}", show=f"show_{entity}_review", update=f"update_{entity}_review",
                delete=f"delete_{entity}_review")


# ---------------------------------------------------------------- medium
consolidate("spotify_manage_playlist", app="spotify", toolboxes=("medium", "compact"),
            summary="Create, show, update or delete one of your Spotify playlists, or add/remove a song.",
            routes=actions(P, show="show_playlist", **_PLAYLIST))
for _entity in ("song", "album", "playlist"):
    consolidate(f"spotify_manage_{_entity}_review", app="spotify", toolboxes=("medium",),
                summary=f"Write, show, update or delete a review of a Spotify {_entity}.",
                routes=actions(P, **_review(_entity)))
consolidate("spotify_manage_playback", app="spotify", toolboxes=("medium",),
            summary="Control Spotify playback: what is playing, play, pause, previous/next song, seek, loop, volume.",
            routes=actions(P, **_PLAYBACK))
consolidate("spotify_manage_queue", app="spotify", toolboxes=("medium",),
            summary="The Spotify song queue: show it, add to it, move or remove a song, clear or shuffle it.",
            routes=actions(P, show="show_song_queue", add="add_to_queue", move="move_song_in_queue",
                           remove="remove_song_from_queue", clear="clear_song_queue", shuffle="shuffle_song_queue"))

# ---------------------------------------------------------------- compact and mini
consolidate("spotify_player", app="spotify", toolboxes=("compact", "mini"),
            summary="The Spotify player: what is playing, play, pause, previous/next, seek, loop, volume, "
                    "and the song queue (show, add, move, remove, clear, shuffle).",
            routes=actions(P, **_PLAYBACK, **_QUEUE))
consolidate("spotify_reviews", app="spotify", toolboxes=("compact",), selectors=("entity_type", "action"),
            selector_docs={"entity_type": "song, album or playlist", "action": "list, show, write, update or delete"},
            summary="Reviews of Spotify songs, albums and playlists: read them, write, update or delete yours.",
            routes={(e, a): P + s for e in ("song", "album", "playlist")
                    for a, s in {"list": f"show_{e}_reviews", **_review(e)}.items()})

# ---------------------------------------------------------------- mini
consolidate("spotify_discover", app="spotify", toolboxes=("mini",), selectors=("entity_type", "action"),
            selector_docs={"entity_type": "song, album, artist, playlist, genre or recommendation",
                           "action": "what to look at"},
            summary="Find music on Spotify: search or show songs, albums, artists and playlists, your private "
                    "info about one, their reviews, the genres, and recommendations for you.",
            routes={**{(e, a): P + s for e in ("song", "album", "playlist")
                       for a, s in {"search": f"search_{e}s", "show": f"show_{e}", "show_privates": f"show_{e}_privates",
                                    "list_reviews": f"show_{e}_reviews", "show_review": f"show_{e}_review"}.items()},
                    ("artist", "search"): P + "search_artists", ("artist", "show"): P + "show_artist",
                    ("genre", "list"): P + "show_genres", ("recommendation", "list"): P + "show_recommendations"})
consolidate("spotify_library", app="spotify", toolboxes=("mini",), selectors=("entity_type", "action"),
            selector_docs={"entity_type": "song, album, playlist or artist", "action": "what to do"},
            summary="Your Spotify collection: like/unlike, library, downloads, followed artists, your playlists "
                    "(create, update, delete, add/remove songs) and your reviews (write, update, delete).",
            routes={**{("song", a): P + s for a, s in dict(
                        like="like_song", unlike="unlike_song", list_liked="show_liked_songs",
                        add_to_library="add_song_to_library", remove_from_library="remove_song_from_library",
                        list_library="show_song_library", download="download_song",
                        remove_download="remove_downloaded_song", list_downloaded="show_downloaded_songs",
                        write_review="review_song", update_review="update_song_review",
                        delete_review="delete_song_review").items()},
                    **{("album", a): P + s for a, s in dict(
                        like="like_album", unlike="unlike_album", list_liked="show_liked_albums",
                        add_to_library="add_album_to_library", remove_from_library="remove_album_from_library",
                        list_library="show_album_library", write_review="review_album",
                        update_review="update_album_review", delete_review="delete_album_review").items()},
                    **{("playlist", a): P + s for a, s in dict(
                        like="like_playlist", unlike="unlike_playlist", list_liked="show_liked_playlists",
                        list_library="show_playlist_library", create="create_playlist", update="update_playlist",
                        delete="delete_playlist", add_song="add_song_to_playlist",
                        remove_song="remove_song_from_playlist", write_review="review_playlist",
                        update_review="update_playlist_review", delete_review="delete_playlist_review").items()},
                    **{("artist", a): P + s for a, s in dict(
                        follow="follow_artist", unfollow="unfollow_artist", list_following="show_following_artists",
                        is_following="show_artist_following").items()}})
