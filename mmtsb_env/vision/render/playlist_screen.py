"""``playlist_screen``: a friend's shared playlist in the music app (UI screenshot).

The same content as ``handwritten_note`` and its ``title``, ``text`` and ``lines`` facts (not how
a hand wrapped them): the note's title is the playlist's name and each line is a track, written ``Title - Artist`` (the artist is shown under the title; a line
without `` - `` is a track of an unnamed artist). Levels add what music apps put around a
playlist -- "recommended" tracks under it and a now-playing bar (other titles and artists:
distractors) -- then a dark low-contrast theme and a downscaled, re-compressed screenshot.
"""

from __future__ import annotations

from PIL import Image

from ._family import Family
from ._common import Ctx, drafting
from ._phone import Screen
from .handwritten_note import FIELDS

ACCENTS = [(30, 185, 84), (232, 69, 69), (120, 80, 220), (236, 120, 20)]
COVERS = [(70, 110, 170), (170, 90, 60), (60, 140, 120), (150, 70, 140), (190, 150, 50), (90, 90, 110)]
CURATORS = ["Maya", "Jonah", "Priya", "Leo", "Sam", "Ines"]
PLAYLISTS = [
    ("Road trip", "Harbor Lights - June Harbor\nMile Marker - The Quiet Hours\nDesert Radio - Ada Reyes\nLong Way Home - Velvet Kites"),
    ("Songs to try", "Copper Sky - Neon Orchard\nSecond Wind - North Avenue\nLow Tide - Mira Vale"),
    ("Sunday morning", "Slow Pour - Kai Osei\nOpen Windows - Drift Club\nLinen - The Lanterns\nHoney Light - June Harbor\nEasy - Ada Reyes"),
]
RECOMMENDED = [("Paper Lanterns", "The Quiet Hours"), ("Coastline", "June Harbor"), ("Static Bloom", "Neon Orchard"),
               ("Slow Orbit", "Velvet Kites"), ("Morning Ferry", "Ada Reyes"), ("Glass Houses", "North Avenue")]


def track(line: str) -> tuple[str, str]:
    """``"Title - Artist"`` -> ``("Title", "Artist")``; a line without an artist keeps the line as title."""
    title, sep, artist = line.rpartition(" - ")
    return (title.strip(), artist.strip()) if sep and title.strip() else (line.strip(), "")


def draw_playlist_screen(ctx: Ctx):
    """A music app's playlist page: the handwritten note's facts (title, its lines as tracks)."""
    pick = ctx.rng("field:playlist").choice(PLAYLISTS)  # defaults are song lists, not the note's errands
    title = ctx.get("title", lambda r: pick[0])
    text = ctx.get("text", lambda r: pick[1])
    f = {"title": title or None, "text": text, "lines": text.split("\n")}
    r = ctx.rng("screen")
    accent = r.choice(ACCENTS)
    curator = r.choice(CURATORS)
    name = f["title"] or f"{curator}'s picks"
    tracks = [track(line) for line in f["lines"] if line.strip()]
    minutes = [(r.randint(2, 5), r.randint(0, 59)) for _ in tracks]
    cr = ctx.rng("clutter")
    n = {0: 0, 1: 2, 2: 3, 3: 3}[ctx.difficulty]
    recommended = cr.sample(RECOMMENDED, n + (1 if n else 0))
    playing = recommended.pop() if n else None
    ctx.distractors.extend(f"{t} - {a}" for t, a in recommended + ([playing] if playing else []))
    facts = {**f, "tracks": [list(t) for t in tracks], "playlist": name, "curator": curator, "app": "music"}
    if drafting():
        return Image.new("RGB", (540, 1000), (240, 240, 240)), facts

    s = Screen(ctx, accent)
    c = s.colors
    total = sum(m * 60 + sec for m, sec in minutes)

    def header(s_, x, y, w, dr):
        if dr:
            s_.canvas.rect((x, y, x + 96, y + 96), fill=accent, radius=8)
            _note_glyph(s_, x + 30, y + 24, 40, (255, 255, 255))
        h = s_.text(x + 110, y + 4, name, "sans-bold", 21, c["text"], w - 110, dr)
        h += s_.text(x + 110, y + 4 + h, f"Playlist · by {curator}", "sans", 14, c["muted"], w - 110, dr)
        h += s_.text(x + 110, y + 4 + h, f"{len(tracks)} songs · {total // 60} min", "sans", 13, c["muted"], w - 110, dr)
        return max(96, h + 4)

    s.add(header)

    def row(title: str, artist: str, length: str | None, cover):
        def block(s_, x, y, w, dr):
            if dr:
                s_.canvas.rect((x, y + 2, x + 40, y + 42), fill=cover, radius=4)
                _note_glyph(s_, x + 12, y + 11, 18, (255, 255, 255))
            right = length or ""
            h = s_.pair(x + 52, y, title, right, w - 52, dr, style="sans-bold", base=15, right_style="sans")
            if artist:
                h += s_.text(x + 52, y + h, artist, "sans", 14, c["text"], w - 52, dr)
            return max(44, h)
        return block

    s.card(*[row(t, a, f"{m}:{sec:02d}", COVERS[k % len(COVERS)]) for k, ((t, a), (m, sec)) in enumerate(zip(tracks, minutes))],
           gap=12)
    if recommended:
        s.add(lambda s_, x, y, w, dr: s_.text(x, y, "Recommended for this playlist", "sans-bold", 16, c["text"], w, dr))
        s.card(*[row(t, a, None, COVERS[(k + 3) % len(COVERS)]) for k, (t, a) in enumerate(recommended)], gap=12)
    if playing:
        def now_playing(s_, x, y, w, dr):
            if dr:
                s_.canvas.rect((x, y, x + w, y + 52), fill=c["line"], radius=8)
                _note_glyph(s_, x + 14, y + 14, 22, accent)
            h = s_.text(x + 48, y + 6, playing[0], "sans-bold", 14, c["text"], w - 60, dr)
            h += s_.text(x + 48, y + 6 + h, playing[1], "sans", 12, c["muted"], w - 60, dr)
            return max(52, h + 12)
        s.add(now_playing)
    image = s.finish("Playlist", tabs=["home", "search", "favorite", "person"] if ctx.difficulty else None)
    return image, facts


FAMILY = Family("playlist_screen", FIELDS, draw_playlist_screen)


def _note_glyph(s: Screen, x: float, y: float, size: float, color) -> None:
    """A music note: a filled head and a stem with a flag."""
    cv = s.canvas
    head = size * 0.42
    cv.ellipse((x, y + size - head, x + head * 1.25, y + size), fill=color)
    stem = x + head * 1.25 - size * 0.07
    cv.rect((stem, y, stem + size * 0.09, y + size - head * 0.5), fill=color)
    cv.rect((stem, y, stem + size * 0.38, y + size * 0.12), fill=color)
