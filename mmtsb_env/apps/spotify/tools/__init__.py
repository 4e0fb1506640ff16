"""Spotify tools, one module per area (registered in this order)."""

from . import catalog, library, playlists, player, premium  # noqa: F401
