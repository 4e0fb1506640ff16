"""Splitwise: group, expense, payment and comment CRUD (medium; compact shares the first three and
merges comments, receipts and balances by target); groups and ledger (mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

P = "splitwise_"

_GROUP = dict(create="create_group", show="show_group", update="update_group", delete="delete_group",
              undelete="undelete_group")
_GROUP_MORE = dict(list="show_groups", add_member="add_member_to_group", remove_member="remove_member_from_group",
                   exit="exit_group", regenerate_invitation_code="regenerate_invitation_code",
                   accept_invitation="accept_group_invitation")
_EXPENSE = dict(record="record_expense", show="show_expense", update="update_expense", delete="delete_expense",
                undelete="undelete_expense")
_EXPENSE_LISTS = dict(list_group="show_group_expenses", list_no_group="show_no_group_expenses")
_PAYMENT = dict(record="record_payment", show="show_payment", update="update_payment", delete="delete_payment",
                undelete="undelete_payment")
_PAYMENT_MORE = dict(list_group="show_group_payments", list_no_group="show_no_group_payments", settle_up="settle_up")
_BALANCE = dict(person="show_person_balance", people="show_people_balance", group="show_group_balance",
                groups="show_groups_balance")


def _comments(kind: str) -> dict[str, str]:
    return dict(post=f"post_{kind}_comment", show=f"show_{kind}_comment", update=f"update_{kind}_comment",
                delete=f"delete_{kind}_comment")


def _receipts(kind: str) -> dict[str, str]:
    return dict(attach=f"attach_{kind}_receipt_file", delete=f"delete_{kind}_receipt_file",
                download=f"download_{kind}_receipt_file")


# ---------------------------------------------------------------- medium
consolidate("splitwise_manage_group", app="splitwise", toolboxes=("medium", "compact"),
            summary="Create, show, update, delete or restore a Splitwise group.", routes=actions(P, **_GROUP))
consolidate("splitwise_manage_expense", app="splitwise", toolboxes=("medium", "compact"),
            summary="Record, show, update, delete or restore a Splitwise expense.", routes=actions(P, **_EXPENSE))
consolidate("splitwise_manage_payment", app="splitwise", toolboxes=("medium", "compact"),
            summary="Record, show, update, delete or restore a Splitwise payment.", routes=actions(P, **_PAYMENT))
for _kind in ("expense", "payment"):
    consolidate(f"splitwise_manage_{_kind}_comment", app="splitwise", toolboxes=("medium",),
                summary=f"Post, show, update or delete a comment on a Splitwise {_kind}.",
                routes=actions(P, **_comments(_kind)))

# ---------------------------------------------------------------- compact
consolidate("splitwise_balances", app="splitwise", toolboxes=("compact",), selectors=("scope",),
            selector_docs={"scope": "whose balance"},
            summary="Who owes whom on Splitwise: with one person, with everyone, within a group, or per group.",
            routes=actions(P, **_BALANCE))
consolidate("splitwise_comments", app="splitwise", toolboxes=("compact",), selectors=("target", "action"),
            selector_docs={"target": "expense or payment", "action": "list, post, show, update or delete"},
            summary="Comments on Splitwise expenses and payments: list, post, show, update or delete.",
            routes={**{("expense", a): P + s for a, s in {"list": "show_expense_comments", **_comments("expense")}.items()},
                    **{("payment", a): P + s for a, s in {"list": "show_payment_comments", **_comments("payment")}.items()}})
consolidate("splitwise_receipts", app="splitwise", toolboxes=("compact",), selectors=("target", "action"),
            selector_docs={"target": "expense or payment", "action": "attach, delete or download"},
            summary="Receipt files of Splitwise expenses and payments: attach, delete or download.",
            routes={**{("expense", a): P + s for a, s in _receipts("expense").items()},
                    **{("payment", a): P + s for a, s in _receipts("payment").items()}})

# ---------------------------------------------------------------- mini
consolidate("splitwise_groups", app="splitwise", toolboxes=("mini",),
            summary="Splitwise groups: list, create, show, update, delete or restore a group, add or remove "
                    "members, leave a group, make a new invitation code, or join with one.",
            routes=actions(P, **_GROUP_MORE, **_GROUP))
_LEDGER: dict[tuple[str, str], str] = {}
for _entity, _acts in (("expense", {**_EXPENSE, **_EXPENSE_LISTS, **{f"receipt_{k}": v for k, v in _receipts("expense").items()}}),
                       ("payment", {**_PAYMENT, **_PAYMENT_MORE, **{f"receipt_{k}": v for k, v in _receipts("payment").items()}}),
                       ("expense_comment", {"list": "show_expense_comments", **_comments("expense")}),
                       ("payment_comment", {"list": "show_payment_comments", **_comments("payment")}),
                       ("balance", _BALANCE),
                       ("activity", {"list": "show_activity"})):
    for _a, _s in _acts.items():
        _LEDGER[(_entity, _a)] = P + _s
consolidate("splitwise_ledger", app="splitwise", toolboxes=("mini",), selectors=("entity", "action"),
            selector_docs={"entity": "what to work on", "action": "what to do"},
            summary="Money on Splitwise: expenses and payments (record, show, update, delete, list, receipts, "
                    "settle up), their comments, balances and recent activity.",
            routes=_LEDGER)
