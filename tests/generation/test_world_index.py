"""The base world's text index: exact substring answers, fast."""

import random

import pytest

from mmtsb_env.generation.world_index import SubstringIndex, world_index


def test_substring_index_agrees_with_a_scan():
    rng = random.Random(0)
    text = "".join(rng.choice("abc de.1é") for _ in range(5000))
    index = SubstringIndex(text)
    for _ in range(2000):
        start, size = rng.randrange(len(text)), rng.randint(3, 9)
        needle = text[start:start + size]
        if rng.random() < 0.5:  # often absent after one change
            k = rng.randrange(len(needle))
            needle = needle[:k] + rng.choice("abcxz9é ") + needle[k + 1:]
        if len(needle) >= 3:
            assert index.contains(needle) == (needle in text), needle
    assert index.contains(text[-3:]) and index.contains(text[:50]) and not index.contains(text + "a")


def test_short_needles_are_refused_by_the_index_but_answered_by_mentions():
    with pytest.raises(ValueError, match="shorter than 3"):
        SubstringIndex("abc").contains("ab")
    wi = world_index(0)
    owner = wi.owner.first_name
    assert wi.mentions(owner) and wi.mentions(owner.upper()) and not wi.mentions("Qzxv Unheard-of Name 7731")
    assert wi.mentions(wi.text[100:102]) and not wi.mentions("")
