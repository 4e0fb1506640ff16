"""Offline web search over the world's pages: the base corpus plus a scenario's own pages (rows)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from mmtsb_env.apps.web_search.tables import MAX_RESULTS, PAGES, corpus
from mmtsb_env.tools.calling import invoke
from mmtsb_env.world import World, build_layer
from mmtsb_env.world.base import base_world

NOW = datetime(2026, 4, 16, 23, 51, 15, tzinfo=timezone.utc)


@pytest.fixture
def world() -> World:
    return World(base_world(0).layer, now=NOW, user_id=1)


def web(world: World, query: str) -> list[dict]:
    out = invoke(world, "web_search_serper", {"query": query})
    assert out.ok, out.text
    return out.result


def test_results_are_organic_results(world: World) -> None:
    results = web(world, "wireless earbuds")
    assert 1 <= len(results) <= MAX_RESULTS
    assert [r["position"] for r in results] == list(range(1, len(results) + 1))
    assert all(set(r) == {"title", "link", "snippet", "position"} for r in results)
    assert all(r["link"].startswith("https://") for r in results)


def test_pages_come_from_the_base_world(world: World) -> None:
    product = base_world(0).layer.tables["amazon.products"][1001]
    top = web(world, product["name"])[0]
    assert top["title"] == f"{product['name']} | Amazon.com"
    assert f"${product['price']:,.2f}" in top["snippet"]
    artist = base_world(0).layer.tables["spotify.artists"][1]
    assert web(world, f"{artist['name']} spotify artist")[0]["title"] == f"{artist['name']} | Spotify"
    me = base_world(0).layer.tables["gmail.users"][1]
    assert any(r["title"].startswith(f"{me['first_name']} {me['last_name']} - ") for r in web(world, f"{me['first_name']} {me['last_name']}"))
    assert "SAVE10" in web(world, "amazon promo codes coupons")[0]["snippet"]
    assert "Dental" in web(world, "dentist near me")[0]["title"]


def test_deterministic_and_cached(world: World) -> None:
    other = World(base_world(0).layer, now=NOW, user_id=1)
    assert web(world, "rock album") == web(other, "rock album")
    assert corpus(world)[0] is corpus(other)[0]
    assert len(corpus(world)[0]) > 1000


HOURS = {"id": 90001, "title": "Harbor Museum - opening hours", "url": "https://harbor-museum.example/visit",
         "snippet": "Open Tuesday to Sunday, 10am to 6pm; closed Mondays.", "content": "tickets exhibitions"}


def staged(*pages: dict) -> World:
    base = base_world(0).layer
    return World(base, build_layer({PAGES: list(pages)}, base), now=NOW, user_id=1)


def test_scenario_pages_are_rows_of_the_world() -> None:
    world = staged(HOURS)
    top = web(world, "harbor museum opening hours")[0]
    assert top == {"title": HOURS["title"], "link": HOURS["url"], "snippet": HOURS["snippet"], "position": 1}
    assert world.get(PAGES, 90001)["title"] == HOURS["title"]
    plain = World(base_world(0).layer, now=NOW, user_id=1)
    assert all("harbor-museum" not in r["link"] for r in web(plain, "harbor museum opening hours"))


def test_look_alike_pages_are_all_found_and_the_base_corpus_stays() -> None:
    old = {**HOURS, "id": 90002, "title": "Harbor Museum - 2025 winter hours", "url": "https://harbor-museum.example/2025",
           "snippet": "Winter 2025: open Thursday to Sunday, 11am to 4pm."}
    world = staged(HOURS, old)
    links = [r["link"] for r in web(world, "harbor museum hours")]
    assert set(links[:2]) == {HOURS["url"], old["url"]}
    product = base_world(0).layer.tables["amazon.products"][1001]
    assert web(world, product["name"])[0]["title"] == f"{product['name']} | Amazon.com"


def test_a_scenario_can_change_or_remove_a_base_page() -> None:
    base = base_world(0).layer
    product = base.tables["amazon.products"][1001]
    key, row = next((k, r) for k, r in base.tables[PAGES].items() if r["title"] == f"{product['name']} | Amazon.com")
    gone = World(base, build_layer({PAGES: [{"id": key, "__deleted__": True}]}, base), now=NOW, user_id=1)
    assert all(r["link"] != row["url"] for r in web(gone, product["name"]))
    changed = staged({"id": key, "snippet": "Discontinued."})
    hit = next(r for r in web(changed, product["name"]) if r["link"] == row["url"])
    assert hit["snippet"] == "Discontinued." and hit["title"] == row["title"]


def test_the_index_is_shared_per_set_of_scenario_pages() -> None:
    a, b = staged(HOURS), staged(dict(HOURS))
    assert corpus(a)[1] is corpus(b)[1]
    assert corpus(a)[1] is not corpus(staged({**HOURS, "snippet": "Closed for renovation."}))[1]


def test_needs_a_network_and_a_query(world: World) -> None:
    empty = invoke(world, "web_search_serper", {"query": "  "})
    assert not empty.ok and "query must not be empty" in empty.text
    for name in ("set_wifi_status", "set_cellular_service_status"):
        assert invoke(world, name, {"on": False}).ok
    out = invoke(world, "web_search_serper", {"query": "weather"})
    assert not out.ok and out.error_kind == "permission_denied" and "no network connection" in out.text


def test_unknown_words_give_no_results(world: World) -> None:
    assert web(world, "qqqzzz xyzzy") == []
