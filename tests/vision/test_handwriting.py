"""The handwritten note's distractor marks keep clear of what the note says."""

from __future__ import annotations

from mmtsb_env.vision.render.handwritten_note import _clear_spot


def _overlap(spot, r, box):
    x, y = spot
    return min(x + r, box[2]) > max(x - r, box[0]) and min(y + r, box[3]) > max(y - r, box[1])


def test_a_clear_spot_stays_where_it_was_drawn():
    assert _clear_spot((60, 500), 20, [(100, 100, 400, 140)], (820, 600)) == (60, 500)
    assert _clear_spot((300, 300), 20, [], (820, 600)) == (300, 300)


def test_a_mark_over_words_moves_to_the_nearest_clear_spot():
    words = [(60, 90 + 54 * i, 60 + 90 * (i + 2), 130 + 54 * i) for i in range(6)]  # a block of lines
    for at, r in [((120, 150), 21), ((300, 250), 90), ((70, 400), 21)]:
        spot = _clear_spot(at, r, words, (820, 700))
        assert not any(_overlap(spot, r, b) for b in words), (at, spot)
        assert r <= spot[0] <= 820 - r and r <= spot[1] <= 700 - r
    # the nearest clear spot: just below the block, not the far corner
    spot = _clear_spot((100, 380), 21, words, (820, 700))
    assert spot[1] - 21 >= 400 and spot[1] < 460 and abs(spot[0] - 100) <= 16


def test_no_clear_spot_takes_the_least_covered():
    full = [(0, 0, 400, 400)]
    spot = _clear_spot((200, 200), 50, full, (420, 420))
    # every spot overlaps the page-wide box; the least overlap is at the border
    assert spot[0] >= 350 or spot[1] >= 350
