"""Derived columns: the reference's names for our values, kept in step on every write."""

from __future__ import annotations

import pytest

from mmtsb_env.world.schema import SchemaError, define_table


def test_derived_columns_follow_inserts_updates_and_external_changes(world):
    world.insert("splitwise.expense_shares", {"id": 90_001, "expense_id": 1, "user_id": 7, "amount": 12.5})
    row = world.get("splitwise.expense_shares", 90_001)
    assert (row["debtor_id"], row["share_amount"]) == (7, 12.5)
    world.update("splitwise.expense_shares", 90_001, amount=3.0, user_id=8)
    row = world.get("splitwise.expense_shares", 90_001)
    assert (row["debtor_id"], row["share_amount"]) == (8, 3.0)
    # a write of the derived column itself does not win over its source
    world.update("splitwise.expense_shares", 90_001, share_amount=99.0)
    assert world.get("splitwise.expense_shares", 90_001)["share_amount"] == 3.0
    staged = next(iter(world.rows("splitwise.expense_shares")))  # external changes edit the starting world
    world.apply_external("update", "splitwise.expense_shares", key=staged["id"], fields={"amount": 4.0})
    assert world.get("splitwise.expense_shares", staged["id"])["share_amount"] == 4.0


def test_reference_names_exist_with_our_meaning(world):
    contact = next(iter(world.rows("phone.contacts")))
    assert contact["name"] == f"{contact['first_name']} {contact['last_name']}".strip() and contact["is_self"] is False
    assert contact["relationship"] == (contact["relationships"] or [None])[0]
    directory = next(r for r in world.rows("file_system.directories") if r["path"].count("/") > 3)
    assert directory["tilde_path"] == "~/" + directory["path"].split("/", 3)[3]
    item = next(iter(world.rows("amazon.order_items")))
    assert item["ordered_quantity"] == item["quantity"] and item["returned_quantity"] == 0


def test_derived_columns_are_auto_columns_and_cannot_shadow_stored_ones():
    spec = define_table("doctest.derived", columns={"id": None, "a": 1}, derived={"b": lambda r: r["a"] * 2})
    assert "b" in spec.auto_columns and spec.complete({"id": 1}) == {"id": 1, "a": 1, "b": 2}
    with pytest.raises(SchemaError, match=r"derived column\(s\) \['a'\] are also declared as stored columns"):
        define_table("doctest.derived_clash", columns={"id": None, "a": 1}, derived={"a": lambda r: 0})
