"""Offline web search over pages derived from the base world plus scenario pages."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from mmtsb_env.apps.web_search.data import MAX_RESULTS, corpus
from mmtsb_env.tools.calling import invoke
from mmtsb_env.world import World
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


def test_scenario_pages_are_searchable(world: World) -> None:
    world.services["web_pages"] = [
        {"title": "Harbor Museum - opening hours", "url": "https://harbor-museum.example/visit",
         "snippet": "Open Tuesday to Sunday, 10am to 6pm; closed Mondays.", "content": "tickets exhibitions"},
    ]
    top = web(world, "harbor museum opening hours")[0]
    assert top == {"title": "Harbor Museum - opening hours", "link": "https://harbor-museum.example/visit",
                   "snippet": "Open Tuesday to Sunday, 10am to 6pm; closed Mondays.", "position": 1}
    plain = World(base_world(0).layer, now=NOW, user_id=1)
    assert all("harbor-museum" not in r["link"] for r in web(plain, "harbor museum opening hours"))


def test_bad_scenario_page_is_reported(world: World) -> None:
    world.services["web_pages"] = [{"snippet": "no title"}]
    out = invoke(world, "web_search_serper", {"query": "anything"})
    assert not out.ok and out.error_kind == "invalid_argument" and "'title' and 'url'" in out.text


def test_needs_a_network_and_a_query(world: World) -> None:
    empty = invoke(world, "web_search_serper", {"query": "  "})
    assert not empty.ok and "query must not be empty" in empty.text
    for name in ("set_wifi_status", "set_cellular_service_status"):
        assert invoke(world, name, {"on": False}).ok
    out = invoke(world, "web_search_serper", {"query": "weather"})
    assert not out.ok and out.error_kind == "permission_denied" and "no network connection" in out.text


def test_unknown_words_give_no_results(world: World) -> None:
    assert web(world, "qqqzzz xyzzy") == []
