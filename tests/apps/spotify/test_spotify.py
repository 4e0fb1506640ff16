"""spotify: every tool, success and error paths, against real world state."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mmtsb_env.apps.spotify import data as sp
from mmtsb_env.apps._accounts import CODES
from mmtsb_env.apps.spotify.tables import (
    ALBUM_LIBRARY, ALBUM_LIKES, ALBUM_REVIEWS, ALBUMS, ARTISTS, DOWNLOADS, FOLLOWS, PAYMENT_CARDS, PLAYERS,
    PLAYLIST_LIKES, PLAYLIST_REVIEWS, PLAYLIST_SONGS, PLAYLISTS, QUEUE, SONG_LIBRARY, SONG_LIKES, SONG_REVIEWS, SONGS,
    SUBSCRIPTIONS, USERS,
)
from mmtsb_env.world.base import base_world
from mmtsb_env.world.populators import BaseBuilder

OWNER = 1


# ----------------------------------------------------------------------------- helpers
def mine(world, table, **eq):
    return world.select(table, user_id=OWNER, **eq)


def other_user(world):
    return world.get(USERS, 2)


def owned_playlist(world, public=None):
    return next(p for p in world.rows(PLAYLISTS) if p["user_id"] == OWNER and (public is None or p["is_public"] == public))


def others_playlist(world, public):
    return next(p for p in world.rows(PLAYLISTS) if p["user_id"] != OWNER and p["is_public"] == public)


def unliked_song(world, table=SONG_LIKES):
    taken = {r["song_id"] for r in mine(world, table)}
    return next(s for s in world.rows(SONGS) if s["id"] not in taken)


def queue_song_ids(world):
    return [r["song_id"] for r in sorted(mine(world, QUEUE), key=lambda r: r["position"])]


def player(world):
    return world.get(PLAYERS, OWNER)


def mean_rating(world, table, fk, item_id):
    ratings = [r["rating"] for r in world.rows(table) if r[fk] == item_id]
    return round(sum(ratings) / len(ratings), 2) if ratings else 0.0


# ----------------------------------------------------------------------------- catalog
def test_catalog_matches_reference(reference):
    reference.assert_matches_catalog("spotify", count=92)  # deliberate differences: none


UNKNOWN_IDS = [  # (tool, arguments naming a song, album, artist or playlist that does not exist)
    ("spotify_show_song", {"song_id": 99999}),
    ("spotify_show_song_privates", {"song_id": 0}),
    ("spotify_like_song", {"song_id": 99999}),
    ("spotify_unlike_song", {"song_id": 99999}),
    ("spotify_show_album", {"album_id": 9999}),
    ("spotify_like_album", {"album_id": 9999}),
    ("spotify_unlike_album", {"album_id": 9999}),
    ("spotify_show_album_privates", {"album_id": 9999}),
    ("spotify_show_artist", {"artist_id": 999}),
    ("spotify_follow_artist", {"artist_id": 999}),
    ("spotify_unfollow_artist", {"artist_id": 999}),
    ("spotify_show_artist_following", {"artist_id": 999}),
    ("spotify_add_song_to_library", {"song_id": 99999}),
    ("spotify_remove_song_from_library", {"song_id": 99999}),
    ("spotify_add_album_to_library", {"album_id": 9999}),
    ("spotify_remove_album_from_library", {"album_id": 9999}),
    ("spotify_download_song", {"song_id": 99999}),
    ("spotify_remove_downloaded_song", {"song_id": 99999}),
    ("spotify_unlike_playlist", {"playlist_id": 99999}),
    ("spotify_play_music", {"song_id": 99999}),
    ("spotify_add_to_queue", {"album_id": 9999}),
]


@pytest.mark.parametrize("tool_name,arguments", UNKNOWN_IDS)
def test_unknown_catalog_ids_are_not_found(call, tool_name, arguments):
    assert "does not exist" in call.fail(tool_name, **arguments)


def test_base_data_size_and_duplicates():
    tables = base_world(0).layer.tables
    assert len(tables[ARTISTS]) >= 60 and len(tables[ALBUMS]) >= 120 and len(tables[SONGS]) >= 500
    titles = Counter(s["title"] for s in tables[SONGS].values())
    assert sum(1 for n in titles.values() if n > 1) >= 3
    names = {a["name"] for a in tables[ARTISTS].values()}
    assert {"Nova Harmony", "Nova Harmonie"} <= names
    # rating/review_count agree with the stored review rows
    for table, items, fk in ((SONG_REVIEWS, SONGS, "song_id"), (ALBUM_REVIEWS, ALBUMS, "album_id")):
        counts = Counter(r[fk] for r in tables[table].values())
        for item in list(tables[items].values())[:80]:
            assert item["review_count"] == counts.get(item["id"], 0)
    # populate is deterministic (its speed is a figure measured outside the tests)
    base = base_world(0)

    def build():
        b = BaseBuilder(seed=0, rng=random.Random(0), fake=None, people=list(base.people), supervisor=base.people[0])
        sp._populate(b)
        return b.rows

    assert build() == build()


# ----------------------------------------------------------------------------- access
def test_network_and_login_requirements(call, world):
    call.go_offline()
    assert "no network" in call.fail("spotify_show_song", song_id=1)
    call("set_wifi_status", on=True)
    call("spotify_logout")
    assert "not logged in" in call.fail("spotify_show_liked_songs")
    assert "not logged in" in call.fail("spotify_play_music")
    # public catalog endpoints work without login
    assert call("spotify_show_song", song_id=1)["song_id"] == 1
    assert call("spotify_show_genres")


def test_acts_as_the_logged_in_user(call, world):
    user = other_user(world)
    call("spotify_login", username=user["email"], password=user["password"])
    library = call("spotify_show_playlist_library", page_limit=20)
    assert library and all(p["owner"]["email"] == user["email"] for p in library)
    created = call("spotify_create_playlist", title="Guest list")
    assert world.get(PLAYLISTS, created["playlist_id"])["user_id"] == user["id"]


def test_account_tools(call, world):
    assert call("spotify_show_account")["id"] == OWNER and "password" not in call("spotify_show_account")
    other = other_user(world)
    assert call("spotify_show_profile", email=other["email"])["first_name"] == other["first_name"]
    assert call("spotify_show_profile")["id"] == OWNER
    assert "no spotify user" in call.fail("spotify_show_profile", email="ghost@example.com")
    call("spotify_update_account_name", last_name="Rivera")
    assert world.get(USERS, OWNER)["last_name"] == "Rivera"
    assert "give first_name" in call.fail("spotify_update_account_name")

    new_id = call("spotify_signup", first_name="Quinn", last_name="Lee", email="quinn@example.com", password="secret1")["user_id"]
    assert world.get(USERS, new_id)["verified"] is False
    assert "already exists" in call.fail("spotify_signup", first_name="Q", last_name="L", email="quinn@example.com", password="secret1")
    assert "at least 6" in call.fail("spotify_signup", first_name="Q", last_name="L", email="q2@example.com", password="abc")
    call("spotify_send_verification_code", email="quinn@example.com")
    code = world.first(CODES, app="spotify", identity="quinn@example.com", purpose="verification")["code"]
    assert "invalid or expired" in call.fail("spotify_verify_account", email="quinn@example.com", verification_code="000000")
    call("spotify_verify_account", email="quinn@example.com", verification_code=code)
    assert world.get(USERS, new_id)["verified"] is True
    assert "no account" in call.fail("spotify_send_verification_code", email="ghost@example.com")

    call("spotify_send_password_reset_code", email="quinn@example.com")
    reset = world.first(CODES, app="spotify", identity="quinn@example.com", purpose="password_reset")["code"]
    assert "invalid or expired" in call.fail("spotify_reset_password", email="quinn@example.com",
                                             password_reset_code="1", new_password="another1")
    call("spotify_reset_password", email="quinn@example.com", password_reset_code=reset, new_password="another1")
    assert "no account" in call.fail("spotify_send_password_reset_code", email="ghost@example.com")
    assert "invalid username" in call.fail("spotify_login", username="quinn@example.com", password="secret1")
    assert call("spotify_login", username="quinn@example.com", password="another1")["user_id"] == new_id
    assert call("spotify_show_playlist_library") == []
    call("spotify_logout")
    assert "not logged in" in call.fail("spotify_logout")
    call("spotify_login", username="quinn@example.com", password="another1")
    call("spotify_delete_account")
    assert world.get(USERS, new_id) is None
    assert "not logged in" in call.fail("spotify_show_account")


# ----------------------------------------------------------------------------- users, genres, songs
def test_search_users_and_genres(call, world):
    user = other_user(world)
    hits = call("spotify_search_users", query=f"{user['first_name']} {user['last_name']}")
    assert hits[0]["email"] == user["email"] and "password" not in hits[0]
    assert len(call("spotify_search_users", page_limit=20)) == 20
    assert "page_limit" in call.fail("spotify_search_users", page_limit=0)
    genres = call("spotify_show_genres")
    assert "pop" in genres and set(s["genre"] for s in world.rows(SONGS)) <= set(genres)


def test_search_songs_query_and_filters(call, world):
    target = world.get(SONGS, 40)
    hits = call("spotify_search_songs", query=target["title"], page_limit=20)
    assert target["id"] in [h["song_id"] for h in hits]
    dup = next(t for t, n in Counter(s["title"] for s in world.rows(SONGS)).items() if n > 1)
    dup_ids = {s["id"] for s in world.rows(SONGS) if s["title"] == dup}
    assert dup_ids <= {h["song_id"] for h in call("spotify_search_songs", query=dup, page_limit=20)}

    by_genre = call("spotify_search_songs", genre="Jazz", page_limit=20)
    assert by_genre and all(h["genre"] == "jazz" for h in by_genre)
    artist_id = target["artist_ids"][0]
    assert all(any(a["id"] == artist_id for a in h["artists"])
               for h in call("spotify_search_songs", artist_id=artist_id, page_limit=20))
    album_hits = call("spotify_search_songs", album_id=target["album_id"], page_limit=20)
    assert {h["song_id"] for h in album_hits} == {s["id"] for s in world.rows(SONGS) if s["album_id"] == target["album_id"]}
    ranged = call("spotify_search_songs", min_duration=200, max_duration=220, min_release_date="2010-01-01",
                  max_release_date="2015-12-31", page_limit=20)
    assert ranged and all(200 <= h["duration"] <= 220 and "2010" <= h["release_date"][:4] <= "2015" for h in ranged)
    played = call("spotify_search_songs", sort_by="-play_count", min_play_count=1000, page_limit=10)
    counts = [h["play_count"] for h in played]
    assert counts == sorted(counts, reverse=True) and min(counts) >= 1000
    assert max(s["play_count"] for s in world.rows(SONGS)) == counts[0]
    rated = call("spotify_search_songs", min_rating=4.5, max_like_count=20000, min_like_count=100, page_limit=20)
    assert all(h["rating"] >= 4.5 and 100 <= h["like_count"] <= 20000 for h in rated)
    page0 = call("spotify_search_songs", page_limit=3)
    page1 = call("spotify_search_songs", page_limit=3, page_index=1)
    assert not {h["song_id"] for h in page0} & {h["song_id"] for h in page1}

    assert "unknown genre" in call.fail("spotify_search_songs", genre="polka")
    assert "sort_by" in call.fail("spotify_search_songs", sort_by="loudness")
    assert "min_release_date" in call.fail("spotify_search_songs", min_release_date="last year")
    assert "integer" in call.fail("spotify_search_songs", min_duration="long")


def test_show_song_and_privates(call, world):
    song = world.get(SONGS, 5)
    shown = call("spotify_show_song", song_id=5)
    assert shown["title"] == song["title"] and shown["play_count"] == song["play_count"]
    assert shown["album_title"] == world.get(ALBUMS, song["album_id"])["title"]
    liked = mine(world, SONG_LIKES)[0]["song_id"]
    assert call("spotify_show_song_privates", song_id=liked)["liked"] is True
    fresh = unliked_song(world)
    assert call("spotify_show_song_privates", song_id=fresh["id"]) == {
        "liked": False, "reviewed": False, "in_song_library": False, "downloaded": False}


def test_like_and_unlike_song(call, world):
    song = unliked_song(world)
    call("spotify_like_song", song_id=song["id"])
    assert world.get(SONGS, song["id"])["like_count"] == song["like_count"] + 1
    assert mine(world, SONG_LIKES, song_id=song["id"])
    latest = call("spotify_show_liked_songs")[0]
    assert latest["song_id"] == song["id"] and latest["liked_at"] == "2026-04-16T23:51:15"
    assert "already like" in call.fail("spotify_like_song", song_id=song["id"])
    call("spotify_unlike_song", song_id=song["id"])
    assert world.get(SONGS, song["id"])["like_count"] == song["like_count"]
    assert not mine(world, SONG_LIKES, song_id=song["id"])
    assert "nothing to unlike" in call.fail("spotify_unlike_song", song_id=song["id"])


def test_show_liked_songs_sorting(call, world):
    liked = call("spotify_show_liked_songs", page_limit=20, sort_by="title")
    assert [s["title"] for s in liked] == sorted(s["title"] for s in liked)
    everything = call("spotify_show_liked_songs", page_limit=20) + call("spotify_show_liked_songs", page_limit=20, page_index=1)
    assert len(everything) == len(mine(world, SONG_LIKES))
    stamps = [s["liked_at"] for s in everything]
    assert stamps == sorted(stamps, reverse=True)
    assert "sort_by" in call.fail("spotify_show_liked_songs", sort_by="genre")


# ----------------------------------------------------------------------------- albums
def test_search_and_show_albums(call, world):
    album = world.get(ALBUMS, 7)
    assert album["id"] in [a["album_id"] for a in call("spotify_search_albums", query=album["title"], page_limit=20)]
    rock = call("spotify_search_albums", genre="rock", min_rating=3.0, page_limit=20)
    assert rock and all(a["genre"] == "rock" and a["rating"] >= 3.0 for a in rock)
    recent = call("spotify_search_albums", min_release_date="2020-01-01", sort_by="release_date", page_limit=20)
    assert all(a["release_date"] >= "2020-01-01" for a in recent)
    assert [a["release_date"] for a in recent] == sorted(a["release_date"] for a in recent)
    popular = call("spotify_search_albums", min_like_count=30000, max_like_count=35000, page_limit=20)
    assert all(30000 <= a["like_count"] <= 35000 for a in popular)
    shown = call("spotify_show_album", album_id=7)
    tracks = sorted((s for s in world.rows(SONGS) if s["album_id"] == 7), key=lambda s: s["track_number"])
    assert shown["song_ids"] == [s["id"] for s in tracks] and shown["title"] == album["title"]
    assert "unknown genre" in call.fail("spotify_search_albums", genre="noise")
    assert "max_release_date" in call.fail("spotify_search_albums", max_release_date="soon")


def test_like_album_privates_and_liked_list(call, world):
    liked = {r["album_id"] for r in mine(world, ALBUM_LIKES)}
    album = next(a for a in world.rows(ALBUMS) if a["id"] not in liked)
    call("spotify_like_album", album_id=album["id"])
    assert world.get(ALBUMS, album["id"])["like_count"] == album["like_count"] + 1
    assert call("spotify_show_album_privates", album_id=album["id"])["liked"] is True
    assert call("spotify_show_liked_albums")[0]["album_id"] == album["id"]
    assert "already like" in call.fail("spotify_like_album", album_id=album["id"])
    call("spotify_unlike_album", album_id=album["id"])
    assert world.get(ALBUMS, album["id"])["like_count"] == album["like_count"]
    assert call("spotify_show_album_privates", album_id=album["id"]) == {
        "liked": False, "reviewed": False, "in_album_library": False}
    assert "nothing to unlike" in call.fail("spotify_unlike_album", album_id=album["id"])
    assert "sort_by" in call.fail("spotify_show_liked_albums", sort_by="size")
    assert len(call("spotify_show_liked_albums", page_limit=20)) == len(mine(world, ALBUM_LIKES))


# ----------------------------------------------------------------------------- artists
def test_search_show_and_follow_artists(call, world):
    names = [a["name"] for a in call("spotify_search_artists", query="nova harmon", page_limit=20)]
    assert {"Nova Harmony", "Nova Harmonie"} <= set(names)
    pop = call("spotify_search_artists", genre="pop", min_follower_count=1000, page_limit=20, sort_by="-follower_count")
    assert pop and all(a["genre"] == "pop" for a in pop)
    assert [a["follower_count"] for a in pop] == sorted((a["follower_count"] for a in pop), reverse=True)
    assert all(a["follower_count"] <= 5000 for a in call("spotify_search_artists", max_follower_count=5000, page_limit=20))
    assert call("spotify_show_artist", artist_id=3)["name"] == world.get(ARTISTS, 3)["name"]
    assert "unknown genre" in call.fail("spotify_search_artists", genre="chiptune")

    followed = {r["artist_id"] for r in mine(world, FOLLOWS)}
    artist = next(a for a in world.rows(ARTISTS) if a["id"] not in followed)
    assert call("spotify_show_artist_following", artist_id=artist["id"])["is_following"] is False
    call("spotify_follow_artist", artist_id=artist["id"])
    assert world.get(ARTISTS, artist["id"])["follower_count"] == artist["follower_count"] + 1
    assert call("spotify_show_artist_following", artist_id=artist["id"])["is_following"] is True
    listed = call("spotify_show_following_artists", query=artist["name"], page_limit=20)
    assert listed[0]["artist_id"] == artist["id"] and listed[0]["followed_at"] == "2026-04-16T23:51:15"
    assert len(call("spotify_show_following_artists", page_limit=20)) == len(followed) + 1
    assert "already follow" in call.fail("spotify_follow_artist", artist_id=artist["id"])
    call("spotify_unfollow_artist", artist_id=artist["id"])
    assert world.get(ARTISTS, artist["id"])["follower_count"] == artist["follower_count"]
    assert not mine(world, FOLLOWS, artist_id=artist["id"])
    assert "do not follow" in call.fail("spotify_unfollow_artist", artist_id=artist["id"])
    assert "sort_by" in call.fail("spotify_show_following_artists", sort_by="age")


# ----------------------------------------------------------------------------- libraries and downloads
def test_song_library(call, world):
    song = unliked_song(world, SONG_LIBRARY)
    call("spotify_add_song_to_library", song_id=song["id"])
    assert mine(world, SONG_LIBRARY, song_id=song["id"])
    hits = call("spotify_show_song_library", query=song["title"], page_limit=20)
    assert hits[0]["song_id"] == song["id"] and hits[0]["added_at"] == "2026-04-16T23:51:15"
    assert call("spotify_show_song_privates", song_id=song["id"])["in_song_library"] is True
    assert "already in your song library" in call.fail("spotify_add_song_to_library", song_id=song["id"])
    call("spotify_remove_song_from_library", song_id=song["id"])
    assert not mine(world, SONG_LIBRARY, song_id=song["id"])
    assert "not in your song library" in call.fail("spotify_remove_song_from_library", song_id=song["id"])
    full = call("spotify_show_song_library", page_limit=20, sort_by="-added_at")
    assert [s["added_at"] for s in full] == sorted((s["added_at"] for s in full), reverse=True)
    assert "sort_by" in call.fail("spotify_show_song_library", sort_by="bpm")


def test_album_library(call, world):
    saved = {r["album_id"] for r in mine(world, ALBUM_LIBRARY)}
    album = next(a for a in world.rows(ALBUMS) if a["id"] not in saved)
    call("spotify_add_album_to_library", album_id=album["id"])
    hits = call("spotify_show_album_library", query=album["title"])
    assert hits[0]["album_id"] == album["id"] and "added_at" in hits[0]
    assert call("spotify_show_album_privates", album_id=album["id"])["in_album_library"] is True
    assert len(call("spotify_show_album_library", page_limit=20)) == len(saved) + 1
    assert "already in your album library" in call.fail("spotify_add_album_to_library", album_id=album["id"])
    call("spotify_remove_album_from_library", album_id=album["id"])
    assert not mine(world, ALBUM_LIBRARY, album_id=album["id"])
    assert "not in your album library" in call.fail("spotify_remove_album_from_library", album_id=album["id"])
    assert "sort_by" in call.fail("spotify_show_album_library", sort_by="color")


def test_downloads_need_premium(call, world):
    song = unliked_song(world, DOWNLOADS)
    call("spotify_download_song", song_id=song["id"])
    assert mine(world, DOWNLOADS, song_id=song["id"])
    today = call("spotify_show_downloaded_songs", min_downloaded_at="2026-04-16", page_limit=20)
    assert [s["song_id"] for s in today] == [song["id"]] and today[0]["downloaded_at"] == "2026-04-16T23:51:15"
    older = call("spotify_show_downloaded_songs", max_downloaded_at="2026-04-15", page_limit=20)
    assert song["id"] not in [s["song_id"] for s in older] and len(older) == len(mine(world, DOWNLOADS)) - 1
    assert call("spotify_show_downloaded_songs", query=song["title"])[0]["song_id"] == song["id"]
    assert call("spotify_show_song_privates", song_id=song["id"])["downloaded"] is True
    assert "already downloaded" in call.fail("spotify_download_song", song_id=song["id"])
    call("spotify_remove_downloaded_song", song_id=song["id"])
    assert not mine(world, DOWNLOADS, song_id=song["id"])
    assert "not among your downloaded" in call.fail("spotify_remove_downloaded_song", song_id=song["id"])
    assert "min_downloaded_at" in call.fail("spotify_show_downloaded_songs", min_downloaded_at="yesterday")
    # premium lapses -> downloading is refused
    for sub in mine(world, SUBSCRIPTIONS):
        world.update(SUBSCRIPTIONS, sub["id"], end_date="2026-01-01T00:00:00")
    assert "premium" in call.fail("spotify_download_song", song_id=song["id"])


# ----------------------------------------------------------------------------- playlists
def test_playlist_library_and_search(call, world):
    library = call("spotify_show_playlist_library", page_limit=20)
    assert {p["playlist_id"] for p in library} == {p["id"] for p in mine(world, PLAYLISTS)}
    private = call("spotify_show_playlist_library", is_public=False, page_limit=20)
    assert private and all(not p["is_public"] for p in private)
    road = call("spotify_show_playlist_library", query="road trip")
    assert {"Road Trip Mix", "Road Trip Mix 2"} <= {p["title"] for p in road}
    assert "sort_by" in call.fail("spotify_show_playlist_library", sort_by="mood")

    hidden = others_playlist(world, public=False)
    everything = []
    for i in range(10):
        everything += call("spotify_search_playlists", page_limit=20, page_index=i)
    ids = {p["playlist_id"] for p in everything}
    assert hidden["id"] not in ids and owned_playlist(world, public=False)["id"] in ids
    shown = others_playlist(world, public=True)
    owner_email = world.get(USERS, shown["user_id"])["email"]
    by_owner = call("spotify_search_playlists", owner_email=owner_email, page_limit=20)
    assert shown["id"] in {p["playlist_id"] for p in by_owner}
    assert all(p["owner"]["email"] == owner_email and p["is_public"] for p in by_owner)
    liked = call("spotify_search_playlists", min_like_count=300, sort_by="-like_count", page_limit=20)
    assert liked and all(p["like_count"] >= 300 for p in liked)
    assert "no spotify user" in call.fail("spotify_search_playlists", owner_email="nobody@example.com")
    assert "sort_by" in call.fail("spotify_search_playlists", sort_by="size")


def test_create_show_update_delete_playlist(call, world):
    pid = call("spotify_create_playlist", title="  Gym 2026 ")["playlist_id"]
    row = world.get(PLAYLISTS, pid)
    assert row["title"] == "Gym 2026" and row["is_public"] is False and row["user_id"] == OWNER
    assert "must not be empty" in call.fail("spotify_create_playlist", title="  ")
    song = world.get(SONGS, 10)
    call("spotify_add_song_to_playlist", playlist_id=pid, song_id=10)
    call("spotify_add_song_to_playlist", playlist_id=pid, song_id=3)
    shown = call("spotify_show_playlist", playlist_id=pid)
    assert [s["id"] for s in shown["songs"]] == [10, 3] and shown["songs"][0]["title"] == song["title"]
    assert "already in playlist" in call.fail("spotify_add_song_to_playlist", playlist_id=pid, song_id=10)
    assert "does not exist" in call.fail("spotify_add_song_to_playlist", playlist_id=pid, song_id=99999)
    call("spotify_remove_song_from_playlist", playlist_id=pid, song_id=10)
    assert [s["song_id"] for s in world.select(PLAYLIST_SONGS, playlist_id=pid)] == [3]
    assert "is not in playlist" in call.fail("spotify_remove_song_from_playlist", playlist_id=pid, song_id=10)

    call("spotify_update_playlist", playlist_id=pid, title="Gym", is_public=True)
    assert world.get(PLAYLISTS, pid)["title"] == "Gym" and world.get(PLAYLISTS, pid)["is_public"] is True
    assert "nothing to update" in call.fail("spotify_update_playlist", playlist_id=pid)
    assert "must not be empty" in call.fail("spotify_update_playlist", playlist_id=pid, title="")

    call("spotify_like_playlist", playlist_id=pid)
    call("spotify_review_playlist", playlist_id=pid, rating=4)
    call("spotify_delete_playlist", playlist_id=pid)
    assert world.get(PLAYLISTS, pid) is None
    for table in (PLAYLIST_SONGS, PLAYLIST_LIKES, PLAYLIST_REVIEWS):
        assert not world.select(table, playlist_id=pid)
    assert "does not exist" in call.fail("spotify_show_playlist", playlist_id=pid)
    assert "does not exist" in call.fail("spotify_delete_playlist", playlist_id=pid)


def test_playlists_of_others(call, world):
    public = others_playlist(world, public=True)
    private = others_playlist(world, public=False)
    shown = call("spotify_show_playlist", playlist_id=public["id"])
    assert shown["owner"]["email"] == world.get(USERS, public["user_id"])["email"]
    assert "does not exist" in call.fail("spotify_show_playlist", playlist_id=private["id"])
    assert "someone else" in call.fail("spotify_update_playlist", playlist_id=public["id"], title="Mine now")
    assert "someone else" in call.fail("spotify_delete_playlist", playlist_id=public["id"])
    assert "someone else" in call.fail("spotify_add_song_to_playlist", playlist_id=public["id"], song_id=1)
    assert "someone else" in call.fail("spotify_remove_song_from_playlist", playlist_id=public["id"], song_id=1)
    assert "does not exist" in call.fail("spotify_add_song_to_playlist", playlist_id=private["id"], song_id=1)
    assert "does not exist" in call.fail("spotify_like_playlist", playlist_id=private["id"])
    assert "does not exist" in call.fail("spotify_show_playlist_privates", playlist_id=private["id"])


def test_like_playlist_and_privates(call, world):
    liked = {r["playlist_id"] for r in mine(world, PLAYLIST_LIKES)}
    pl = next(p for p in world.rows(PLAYLISTS) if p["is_public"] and p["user_id"] != OWNER and p["id"] not in liked)
    assert call("spotify_show_playlist_privates", playlist_id=pl["id"]) == {"liked": False, "reviewed": False, "is_owner": False}
    call("spotify_like_playlist", playlist_id=pl["id"])
    assert world.get(PLAYLISTS, pl["id"])["like_count"] == pl["like_count"] + 1
    assert call("spotify_show_liked_playlists")[0]["playlist_id"] == pl["id"]
    assert call("spotify_show_playlist_privates", playlist_id=pl["id"])["liked"] is True
    assert "already like" in call.fail("spotify_like_playlist", playlist_id=pl["id"])
    call("spotify_unlike_playlist", playlist_id=pl["id"])
    assert world.get(PLAYLISTS, pl["id"])["like_count"] == pl["like_count"]
    assert "nothing to unlike" in call.fail("spotify_unlike_playlist", playlist_id=pl["id"])
    assert len(call("spotify_show_liked_playlists", page_limit=20)) == len(liked)
    assert "sort_by" in call.fail("spotify_show_liked_playlists", sort_by="songs")
    own = owned_playlist(world)
    assert call("spotify_show_playlist_privates", playlist_id=own["id"])["is_owner"] is True


# ----------------------------------------------------------------------------- reviews
@pytest.mark.parametrize("kind,items,table,fk", [
    ("song", SONGS, SONG_REVIEWS, "song_id"),
    ("album", ALBUMS, ALBUM_REVIEWS, "album_id"),
    ("playlist", PLAYLISTS, PLAYLIST_REVIEWS, "playlist_id"),
])
def test_review_lifecycle_updates_average(call, world, kind, items, table, fk):
    reviewed = {r[fk] for r in mine(world, table)}
    item = next(i for i in world.rows(items) if i["id"] not in reviewed and i["review_count"] >= 1
                and (kind != "playlist" or (i["is_public"] and i["user_id"] != OWNER)))
    created = call(f"spotify_review_{kind}", **{fk: item["id"]}, rating=1, title="Meh", text="Too slow")
    rid = created[f"{kind}_review_id"]
    after = world.get(items, item["id"])
    assert after["review_count"] == item["review_count"] + 1
    assert after["rating"] == mean_rating(world, table, fk, item["id"]) and after["rating"] < item["rating"] + 0.001
    shown = call(f"spotify_show_{kind}_review", review_id=rid)
    assert shown["rating"] == 1 and shown["user"]["email"] == world.get(USERS, OWNER)["email"]
    listed = call(f"spotify_show_{kind}_reviews", **{fk: item["id"]}, user_email=world.get(USERS, OWNER)["email"])
    assert [r[f"{kind}_review_id"] for r in listed] == [rid]
    assert [r[f"{kind}_review_id"] for r in call(f"spotify_show_{kind}_reviews", **{fk: item["id"]}, query="slow")] == [rid]
    assert all(r["rating"] >= 2 for r in call(f"spotify_show_{kind}_reviews", **{fk: item["id"]}, min_rating=2))
    if kind != "playlist":
        assert call(f"spotify_show_{kind}_privates", **{fk: item["id"]})["reviewed"] is True
    assert "already reviewed" in call.fail(f"spotify_review_{kind}", **{fk: item["id"]}, rating=5)

    call(f"spotify_update_{kind}_review", review_id=rid, rating=5, text="Grew on me")
    updated = world.get(table, rid)
    assert updated["rating"] == 5 and updated["text"] == "Grew on me" and updated["title"] == "Meh"
    assert world.get(items, item["id"])["rating"] == mean_rating(world, table, fk, item["id"])
    assert "nothing to update" in call.fail(f"spotify_update_{kind}_review", review_id=rid)
    assert "1 to 5" in call.fail(f"spotify_update_{kind}_review", review_id=rid, rating=6)

    theirs = next(r for r in world.rows(table) if r["user_id"] != OWNER)
    assert "someone else" in call.fail(f"spotify_update_{kind}_review", review_id=theirs["id"], rating=3)
    assert "someone else" in call.fail(f"spotify_delete_{kind}_review", review_id=theirs["id"])

    call(f"spotify_delete_{kind}_review", review_id=rid)
    assert world.get(table, rid) is None
    final = world.get(items, item["id"])
    assert final["review_count"] == item["review_count"] and final["rating"] == item["rating"]
    assert "does not exist" in call.fail(f"spotify_show_{kind}_review", review_id=rid)
    assert "does not exist" in call.fail(f"spotify_delete_{kind}_review", review_id=rid)
    assert "does not exist" in call.fail(f"spotify_update_{kind}_review", review_id=rid, rating=2)
    assert "1 to 5" in call.fail(f"spotify_review_{kind}", **{fk: item["id"]}, rating=0)
    assert "does not exist" in call.fail(f"spotify_review_{kind}", **{fk: 99999}, rating=3)
    assert "does not exist" in call.fail(f"spotify_show_{kind}_reviews", **{fk: 99999})
    assert "no spotify user" in call.fail(f"spotify_show_{kind}_reviews", **{fk: item["id"]}, user_email="x@y.z")
    assert "sort_by" in call.fail(f"spotify_show_{kind}_reviews", **{fk: item["id"]}, sort_by="likes")


def test_first_review_sets_rating_and_private_playlist_reviews_hidden(call, world):
    song = next(s for s in world.rows(SONGS) if s["review_count"] == 0)
    call("spotify_review_song", song_id=song["id"], rating=4)
    assert world.get(SONGS, song["id"])["rating"] == 4.0 and world.get(SONGS, song["id"])["review_count"] == 1
    private = others_playlist(world, public=False)
    assert "does not exist" in call.fail("spotify_review_playlist", playlist_id=private["id"], rating=3)
    assert "does not exist" in call.fail("spotify_show_playlist_reviews", playlist_id=private["id"])
    # a review of a playlist that became private is no longer visible
    review = next(r for r in world.rows(PLAYLIST_REVIEWS)
                  if world.get(PLAYLISTS, r["playlist_id"])["user_id"] != OWNER)
    assert call("spotify_show_playlist_review", review_id=review["id"])["playlist_id"] == review["playlist_id"]
    world.update(PLAYLISTS, review["playlist_id"], is_public=False)
    assert "does not exist" in call.fail("spotify_show_playlist_review", review_id=review["id"])


# ----------------------------------------------------------------------------- payment cards and premium
def test_payment_cards(call, world):
    cards = call("spotify_show_payment_cards")
    assert {c["payment_card_id"] for c in cards} == {c["id"] for c in mine(world, PAYMENT_CARDS)}
    assert all("cvv_number" not in c for c in cards)
    args = dict(card_name="Backup", owner_name="Me Myself", card_number=4111111111111111, expiry_year=2029,
                expiry_month=5, cvv_number=123)
    cid = call("spotify_add_payment_card", **args)["payment_card_id"]
    assert world.get(PAYMENT_CARDS, cid)["user_id"] == OWNER
    assert call("spotify_show_payment_card", payment_card_id=cid)["card_number"] == 4111111111111111
    assert "already saved" in call.fail("spotify_add_payment_card", **args)
    assert "16 digits" in call.fail("spotify_add_payment_card", **{**args, "card_number": 1234})
    assert "expiry_month" in call.fail("spotify_add_payment_card", **{**args, "card_number": 4111111111111112, "expiry_month": 13})
    assert "expired" in call.fail("spotify_add_payment_card", **{**args, "card_number": 4111111111111112, "expiry_year": 2026, "expiry_month": 3})
    assert "cvv" in call.fail("spotify_add_payment_card", **{**args, "card_number": 4111111111111112, "cvv_number": 7})
    assert "card_name" in call.fail("spotify_add_payment_card", **{**args, "card_name": " "})
    assert "owner_name" in call.fail("spotify_add_payment_card", **{**args, "owner_name": ""})
    call("spotify_update_payment_card", payment_card_id=cid, card_name="Emergency")
    assert world.get(PAYMENT_CARDS, cid)["card_name"] == "Emergency"
    assert "card_name" in call.fail("spotify_update_payment_card", payment_card_id=cid, card_name="")
    theirs = next(c for c in world.rows(PAYMENT_CARDS) if c["user_id"] != OWNER)
    assert "does not exist" in call.fail("spotify_show_payment_card", payment_card_id=theirs["id"])
    assert "does not exist" in call.fail("spotify_update_payment_card", payment_card_id=theirs["id"], card_name="x")
    assert "does not exist" in call.fail("spotify_delete_payment_card", payment_card_id=theirs["id"])
    call("spotify_delete_payment_card", payment_card_id=cid)
    assert world.get(PAYMENT_CARDS, cid) is None


def test_premium_plans_subscribe_and_history(call, world):
    plans = {p["plan"]: p["price"] for p in call("spotify_show_premium_plans")}
    assert plans == {"monthly": 10.99, "yearly": 109.99}
    history = call("spotify_show_premium_subscriptions")
    active = [s for s in history if s["is_active"]]
    assert len(active) == 1 and active[0]["end_date"] == "2026-09-15T18:30:02"
    card = mine(world, PAYMENT_CARDS)[0]
    made = call("spotify_subscribe_premium", payment_card_id=card["id"], duration="monthly")
    assert made["start_date"] == "2026-09-15T18:30:02" and made["end_date"] == "2026-10-15T18:30:02"
    row = world.get(SUBSCRIPTIONS, made["premium_subscription_id"])
    assert row["amount"] == 10.99 and row["user_id"] == OWNER and row["plan"] == "monthly"
    assert call("spotify_show_premium_subscriptions")[0]["premium_subscription_id"] == row["id"]
    assert "'duration'" in call.fail("spotify_subscribe_premium", payment_card_id=card["id"], duration="weekly")
    theirs = next(c for c in world.rows(PAYMENT_CARDS) if c["user_id"] != OWNER)
    assert "does not exist" in call.fail("spotify_subscribe_premium", payment_card_id=theirs["id"], duration="yearly")
    world.update(PAYMENT_CARDS, card["id"], expiry_year=2025)
    assert "expired" in call.fail("spotify_subscribe_premium", payment_card_id=card["id"], duration="yearly")
    assert "page_limit" in call.fail("spotify_show_premium_subscriptions", page_limit=21)


def test_subscribe_without_active_premium_starts_now(call, world):
    for sub in mine(world, SUBSCRIPTIONS):
        world.update(SUBSCRIPTIONS, sub["id"], end_date="2026-01-31T00:00:00")
    card = mine(world, PAYMENT_CARDS)[1]
    made = call("spotify_subscribe_premium", payment_card_id=card["id"], duration="yearly")
    assert made["start_date"] == "2026-04-16T23:51:15" and made["end_date"] == "2027-04-16T23:51:15"
    song = unliked_song(world, DOWNLOADS)
    call("spotify_download_song", song_id=song["id"])  # premium again


def test_download_receipt_to_file_system(call, world):
    sub = mine(world, SUBSCRIPTIONS)[0]
    saved = call("spotify_download_premium_subscription_receipt", premium_subscription_id=sub["id"],
                 file_system_access_token="token")
    assert saved["file_path"].endswith(f"/downloads/spotify_premium_receipt_{sub['id']}.txt")
    content = call("file_system_show_file", file_path=saved["file_path"])["content"]
    assert f"${sub['amount']:.2f}" in content and sub["plan"] in content
    assert "already exists" in call.fail("spotify_download_premium_subscription_receipt",
                                         premium_subscription_id=sub["id"], file_system_access_token="token")
    call("spotify_download_premium_subscription_receipt", premium_subscription_id=sub["id"],
         file_system_access_token="token", overwrite=True)
    custom = call("spotify_download_premium_subscription_receipt", premium_subscription_id=sub["id"],
                  file_system_access_token="token", download_to_file_path="~/receipts/")
    assert custom["file_path"].endswith(f"/receipts/spotify_premium_receipt_{sub['id']}.txt")
    theirs = next(s for s in world.rows(SUBSCRIPTIONS) if s["user_id"] != OWNER)
    assert "does not exist" in call.fail("spotify_download_premium_subscription_receipt",
                                         premium_subscription_id=theirs["id"], file_system_access_token="token")
    assert "file_system_access_token" in call.fail("spotify_download_premium_subscription_receipt",
                                                   premium_subscription_id=sub["id"], file_system_access_token=" ")
    call("file_system_logout")
    assert "file_system" in call.fail("spotify_download_premium_subscription_receipt",
                                      premium_subscription_id=sub["id"], file_system_access_token="token",
                                      download_to_file_path="~/x.txt")


# ----------------------------------------------------------------------------- player
def test_current_song_queue_and_volume(call, world):
    p = player(world)
    queue = queue_song_ids(world)
    current = call("spotify_show_current_song")
    assert current["song_id"] == queue[p["current_position"] - 1] and current["played_seconds"] == p["played_seconds"]
    shown = call("spotify_show_song_queue")
    assert [s["song_id"] for s in shown] == queue
    assert [s["is_current"] for s in shown].count(True) == 1 and shown[p["current_position"] - 1]["is_playing"]
    assert call("spotify_show_volume") == {"volume": p["volume"]}
    call("spotify_set_volume", volume=10)
    assert player(world)["volume"] == 10
    assert "between 0 and 10" in call.fail("spotify_set_volume", volume=11)
    assert "between 0 and 10" in call.fail("spotify_set_volume", volume=-1)


def test_play_pause_and_resume(call, world):
    assert "already playing" in call.fail("spotify_play_music")
    call("spotify_pause_music")
    assert player(world)["is_playing"] is False
    assert "already paused" in call.fail("spotify_pause_music")
    seconds = player(world)["played_seconds"]
    resumed = call("spotify_play_music")
    assert player(world)["is_playing"] is True and player(world)["played_seconds"] == seconds
    assert resumed["song_id"] == call("spotify_show_current_song")["song_id"]
    assert "at most one" in call.fail("spotify_play_music", song_id=1, album_id=2)


def test_play_song_album_playlist_and_position(call, world):
    before = queue_song_ids(world)
    call("spotify_play_music", song_id=77)
    assert queue_song_ids(world) == before + [77]
    assert player(world)["current_position"] == len(before) + 1 and player(world)["played_seconds"] == 0
    assert call("spotify_show_current_song")["song_id"] == 77

    album_songs = call("spotify_show_album", album_id=4)["song_ids"]
    started = call("spotify_play_music", album_id=4)
    assert started["song_id"] == album_songs[0] and queue_song_ids(world)[-len(album_songs):] == album_songs

    pl = owned_playlist(world)
    pl_songs = [s["id"] for s in call("spotify_show_playlist", playlist_id=pl["id"])["songs"]]
    call("spotify_play_music", playlist_id=pl["id"])
    assert queue_song_ids(world)[-len(pl_songs):] == pl_songs

    call("spotify_play_music", queue_position=2)
    assert player(world)["current_position"] == 2 and call("spotify_show_current_song")["song_id"] == before[1]
    size = len(queue_song_ids(world))
    assert f"between 1 and {size}" in call.fail("spotify_play_music", queue_position=size + 1)
    assert "does not exist" in call.fail("spotify_play_music", playlist_id=others_playlist(world, False)["id"])


def test_next_previous_wrap_around(call, world):
    queue = queue_song_ids(world)
    call("spotify_play_music", queue_position=len(queue))
    assert call("spotify_next_song")["song_id"] == queue[0]
    assert player(world)["current_position"] == 1 and player(world)["played_seconds"] == 0
    assert call("spotify_previous_song")["song_id"] == queue[-1]
    assert call("spotify_previous_song")["song_id"] == queue[-2]


def test_move_seek_loop_and_remove(call, world):
    queue = queue_song_ids(world)
    current = call("spotify_show_current_song")["song_id"]
    pos = player(world)["current_position"]
    call("spotify_move_song_in_queue", current_position=pos, new_position=len(queue))
    expected = queue[:pos - 1] + queue[pos:] + [queue[pos - 1]]
    assert queue_song_ids(world) == expected and call("spotify_show_current_song")["song_id"] == current
    assert sorted(r["position"] for r in mine(world, QUEUE)) == list(range(1, len(queue) + 1))
    assert "new_position" in call.fail("spotify_move_song_in_queue", current_position=1, new_position=0)
    assert "current_position" in call.fail("spotify_move_song_in_queue", current_position=99, new_position=1)

    duration = world.get(SONGS, current)["duration"]
    call("spotify_seek_song", seek_seconds=duration - 5)
    assert player(world)["played_seconds"] == duration - 5
    assert "between 0 and" in call.fail("spotify_seek_song", seek_seconds=duration + 1)
    call("spotify_loop_song", loop=True)
    assert player(world)["is_looping"] is True and call("spotify_show_current_song")["is_looping"] is True
    call("spotify_loop_song", loop=False)
    assert player(world)["is_looping"] is False

    # removing a song before the current one keeps the current song
    call("spotify_remove_song_from_queue", position=1)
    assert call("spotify_show_current_song")["song_id"] == current and len(queue_song_ids(world)) == len(queue) - 1
    # removing the current (last) song moves on, wrapping to the first
    last = len(queue_song_ids(world))
    call("spotify_remove_song_from_queue", position=last)
    assert player(world)["current_position"] == 1 and player(world)["played_seconds"] == 0
    assert "position" in call.fail("spotify_remove_song_from_queue", position=50)


def test_shuffle_keeps_current_on_top(call, world):
    queue = queue_song_ids(world)
    current = call("spotify_show_current_song")["song_id"]
    call("spotify_shuffle_song_queue")
    shuffled = queue_song_ids(world)
    assert sorted(shuffled) == sorted(queue) and shuffled[0] == current
    assert player(world)["current_position"] == 1 and call("spotify_show_current_song")["song_id"] == current


def test_add_to_queue_and_clear(call, world):
    before = queue_song_ids(world)
    added = call("spotify_add_to_queue", album_id=2)
    assert queue_song_ids(world) == before + added["song_ids"]
    assert "exactly one" in call.fail("spotify_add_to_queue")
    assert "exactly one" in call.fail("spotify_add_to_queue", song_id=1, playlist_id=1)
    assert "does not exist" in call.fail("spotify_add_to_queue", playlist_id=others_playlist(world, False)["id"])
    empty = call("spotify_create_playlist", title="Empty")["playlist_id"]
    assert "has no songs" in call.fail("spotify_add_to_queue", playlist_id=empty)

    call("spotify_clear_song_queue")
    assert queue_song_ids(world) == [] and player(world)["current_position"] is None
    assert player(world)["is_playing"] is False
    assert call("spotify_clear_song_queue")["message"].startswith("The queue is already empty")
    assert call("spotify_show_song_queue") == []
    for name, args in (("spotify_show_current_song", {}), ("spotify_pause_music", {}), ("spotify_next_song", {}),
                       ("spotify_previous_song", {}), ("spotify_seek_song", {"seek_seconds": 1}),
                       ("spotify_loop_song", {"loop": True}), ("spotify_shuffle_song_queue", {}),
                       ("spotify_play_music", {}), ("spotify_remove_song_from_queue", {"position": 1}),
                       ("spotify_move_song_in_queue", {"current_position": 1, "new_position": 1})):
        call.fail(name, **args)
    # the first song added to an empty queue becomes current, paused
    call("spotify_add_to_queue", song_id=9)
    assert player(world)["current_position"] == 1 and player(world)["is_playing"] is False
    call("spotify_play_music")
    assert player(world)["is_playing"] is True


def test_player_is_created_for_a_user_without_one(call, world):
    user = other_user(world)
    call("spotify_login", username=user["email"], password=user["password"])
    assert call("spotify_show_volume") == {"volume": 5}
    assert call("spotify_show_song_queue") == []
    call("spotify_play_music", song_id=12)
    assert world.get(PLAYERS, user["id"])["current_position"] == 1
    assert [r["song_id"] for r in world.select(QUEUE, user_id=user["id"])] == [12]


def test_remove_last_remaining_song_stops_playback(call, world):
    call("spotify_clear_song_queue")
    call("spotify_play_music", song_id=3)
    call("spotify_remove_song_from_queue", position=1)
    assert player(world)["current_position"] is None and player(world)["is_playing"] is False


# ----------------------------------------------------------------------------- recommendations
def test_recommendations_skip_known_songs(call, world):
    known = {r["song_id"] for r in mine(world, SONG_LIKES)} | {r["song_id"] for r in mine(world, SONG_LIBRARY)}
    recs = call("spotify_show_recommendations", page_limit=20)
    assert len(recs) == 20 and not known & {r["song_id"] for r in recs}
    followed = {r["artist_id"] for r in mine(world, FOLLOWS)}
    assert any(followed & {a["id"] for a in r["artists"]} for r in recs)
    top = recs[0]["song_id"]
    call("spotify_like_song", song_id=top)
    assert top not in {r["song_id"] for r in call("spotify_show_recommendations", page_limit=20)}
    second_page = call("spotify_show_recommendations", page_index=1)
    assert second_page and second_page[0]["song_id"] not in {r["song_id"] for r in recs[:5]}
    assert "page_index" in call.fail("spotify_show_recommendations", page_index=-1)
