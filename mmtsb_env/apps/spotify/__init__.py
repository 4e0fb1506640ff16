"""Spotify: the music catalog, likes, libraries, playlists, the player and Premium.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, data, tools  # noqa: F401
