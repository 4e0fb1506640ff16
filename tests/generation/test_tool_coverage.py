"""Tool coverage of the built-in suites' solutions (issue #18): distinct tools, every domain's main
create/update/delete tools, cross-app rounds, visual tools where images need them."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import mmtsb_env
from mmtsb_env.generation.domains import MAIN
from mmtsb_env.tools.registry import get_tool

BUILT_IN = ("nominal", "ui", "extended")


@lru_cache(maxsize=None)
def suite(name: str):
    return tuple(mmtsb_env.load_suite(name))


def tools_of(scenarios) -> Counter:
    return Counter(st["name"] for s in scenarios for r in s.rounds for st in r.solution if "name" in st)


def cross_app(rnd) -> bool:
    """A round that reads in one app and then writes in two other apps."""
    names = [st["name"] for st in rnd.solution if "name" in st]
    for i, name in enumerate(names):
        tool = get_tool(name)
        if tool.writes or tool.app == "vision":
            continue
        if len({get_tool(n).app for n in names[i + 1:] if get_tool(n).writes} - {tool.app}) >= 2:
            return True
    return False


def test_at_least_300_distinct_tools_over_the_built_in_suites():
    union = set()
    for name in BUILT_IN:
        union |= set(tools_of(suite(name)))
    assert len(union) >= 300, len(union)
    assert len(set(tools_of(suite("nominal")))) >= 200  # nominal alone (measured in docs/generation.md)


def test_every_domain_main_create_update_delete_tool_is_used():
    used = set()
    for name in BUILT_IN:
        used |= set(tools_of(suite(name)))
    missing = [t for tools in MAIN.values() for t in tools if t not in used]
    assert missing == []
    nominal = set(tools_of(suite("nominal")))
    assert [t for tools in MAIN.values() for t in tools if t not in nominal] == []


def test_cross_app_rounds_read_in_one_app_and_write_in_two_others():
    rounds = [r for s in suite("nominal") for r in s.rounds if cross_app(r)]
    assert len(rounds) >= 25, len(rounds)
    # they say back what they read (the round's report), and their changes are expected changes
    table_flows = [r for r in rounds if r.report]
    assert len(table_flows) >= 15
    extended = sum(cross_app(r) for s in suite("extended") for r in s.rounds)
    assert extended >= 200, extended


def test_visual_tools_only_for_degraded_images_of_the_round():
    used = tools_of(suite("nominal"))
    assert used["crop_image"] > 0 and used["enhance_image"] > 0 and used["rotate_image"] > 0
    for s in suite("nominal"):
        for r in s.rounds:
            source = {}  # save_as of a visual step -> the delivered image it started from
            for st in r.solution:
                if st.get("name") in ("crop_image", "enhance_image", "rotate_image"):
                    i = st["arguments"]["image_id"]
                    if isinstance(i, dict):  # a tool image made earlier in the round (the photo turned upright)
                        i = source[i["$ref"].split(".")[0]]
                    if "save_as" in st:
                        source[st["save_as"]] = i
                    assert i in r.image_ids, (s.id, st)  # before using the image the round delivers
                    assert s.images[i].render["difficulty"] >= 1, (s.id, i)
                    if st["name"] == "crop_image":
                        # photos, business cards and signs report where their picture lies (doc_box, product_box)
                        kind = s.images[i].render["kind"]
                        assert kind.endswith("_photo") or kind in ("business_card", "sign"), (s.id, i, kind)
