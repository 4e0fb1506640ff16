"""Table 12's image groups on a generated nominal-sized sample: each group's share of scenarios
within 5 points of the paper's (natural text-rich 39 %, natural little-text 28 %, documents /
charts / tables 47 %, UI 17 %). Drawing each image's family on its own put a UI screen in 44 % and
a document in 63 % of such a sample; a scenario now draws its records with one or two families
(``images.palette_of``)."""

from __future__ import annotations

from mmtsb_env.generation import generate
from mmtsb_env.generation.images import RENDERINGS, palette_of
from mmtsb_env.vision.render.groups import PAPER_SHARES, group_of, group_shares


def test_generated_group_shares_are_within_five_points_of_the_paper():
    sample = generate(258, seed=2026, verify="static")  # the nominal command's draws, static checks only
    shares = group_shares(sample)
    print("\n" + "\n".join(f"{g:<20} {shares[g]:6.1%}  paper {PAPER_SHARES[g]:.0%}" for g in shares))
    for group, paper in PAPER_SHARES.items():
        assert abs(shares[group] - paper) <= 0.05, (group, shares[group], paper)
    # recognition and hard images stay: little-text photos, a level-3 image in every scenario
    kinds = {im.render["kind"] for s in sample for im in s.images}
    assert {"product_photo", "object_scene", "tally_photo", "chart_read", "table_document"} <= kinds
    assert all(any(im.render["difficulty"] == 3 for im in s.images) for s in sample)


def test_a_palette_holds_one_family_or_two_from_different_groups():
    for key in RENDERINGS:
        sizes = set()
        for seed in range(300):
            palette = palette_of(key, seed)
            sizes.add(len(palette))
            assert all(k in dict(RENDERINGS[key]) for k in palette)
            if len(palette) == 2:
                assert group_of(palette[0]) != group_of(palette[1])
        if len({group_of(k) for k, _ in RENDERINGS[key]}) > 1:
            assert sizes == {1, 2}, key
