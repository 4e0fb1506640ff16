"""Cross-app tools: accounts, payment cards, notifications and subscriptions of every app.

They are ``app="system"`` so a scenario limited to some domains still offers them.
"""

from __future__ import annotations

from ..tools.consolidate import consolidate, per_app

ACCOUNT_APPS = ("amazon", "file_system", "gmail", "phone", "simple_note", "splitwise", "spotify", "todoist", "venmo")
CARD_APPS = ("amazon", "spotify", "venmo")
NOTIFICATION_APPS = ("splitwise", "todoist", "venmo")

_ACCOUNT_ACTIONS = {
    "show": "show_account", "signup": "signup", "delete": "delete_account", "update_name": "update_account_name",
    "login": "login", "logout": "logout", "send_verification_code": "send_verification_code",
    "verify": "verify_account", "send_password_reset_code": "send_password_reset_code",
    "reset_password": "reset_password",
}
_PEOPLE_ACTIONS = {"show_profile": "show_profile", "search_users": "search_users"}
_CARD_ACTIONS = {
    "list": "show_payment_cards", "show": "show_payment_card", "add": "add_payment_card",
    "update": "update_payment_card", "delete": "delete_payment_card",
}
_NOTIFICATION_ACTIONS = {
    "list": "show_notifications", "count": "show_notifications_count", "mark_all": "mark_notifications",
    "delete_all": "delete_notifications", "mark": "mark_notification", "delete": "delete_notification",
}
_SUBSCRIPTION_ROUTES = {
    ("amazon", "plans"): "amazon_show_prime_plans",
    ("amazon", "subscribe"): "amazon_subscribe_prime",
    ("amazon", "list"): "amazon_show_prime_subscriptions",
    ("amazon", "download_receipt"): "amazon_download_prime_subscription_receipt",
    ("spotify", "plans"): "spotify_show_premium_plans",
    ("spotify", "subscribe"): "spotify_subscribe_premium",
    ("spotify", "list"): "spotify_show_premium_subscriptions",
    ("spotify", "download_receipt"): "spotify_download_premium_subscription_receipt",
}
_APP_DOC = {"app": "which app's account", "action": "what to do"}

consolidate(
    "manage_account", app="system", toolboxes=("medium",), selectors=("app", "action"), selector_docs=_APP_DOC,
    summary="Manage your account in any app: show it, sign up, log in or out, verify, reset the password, "
            "rename or delete it.",
    routes=per_app(ACCOUNT_APPS, _ACCOUNT_ACTIONS),
)
consolidate(
    "app_account", app="system", toolboxes=("compact", "mini"), selectors=("app", "action"), selector_docs=_APP_DOC,
    summary="Accounts and people in any app: your account (show, sign up, log in/out, verify, reset the "
            "password, rename, delete), someone's public profile, or a search for users.",
    routes={**per_app(ACCOUNT_APPS, _ACCOUNT_ACTIONS), **per_app(ACCOUNT_APPS, _PEOPLE_ACTIONS)},
)
consolidate(
    "manage_payment_card", app="system", toolboxes=("medium", "compact"), selectors=("app", "action"),
    selector_docs={"app": "which app's saved cards", "action": "what to do"},
    summary="List, show, add, rename or delete the payment cards saved in Amazon, Spotify or Venmo.",
    routes=per_app(CARD_APPS, _CARD_ACTIONS),
)
consolidate(
    "manage_notifications", app="system", toolboxes=("medium", "compact"), selectors=("app", "action"),
    selector_docs={"app": "which app's notifications", "action": "what to do"},
    summary="Read, count, mark (read/unread) or delete notifications in Splitwise, Todoist or Venmo.",
    routes=per_app(NOTIFICATION_APPS, _NOTIFICATION_ACTIONS),
)
consolidate(
    "manage_subscription", app="system", toolboxes=("compact",), selectors=("app", "action"),
    selector_docs={"app": "amazon (Prime) or spotify (Premium)", "action": "what to do"},
    summary="Amazon Prime and Spotify Premium: see the plans, subscribe, list your subscriptions, download a receipt.",
    routes=_SUBSCRIPTION_ROUTES,
)

_SERVICE_ROUTES: dict[tuple[str, str, str], str] = {}
for (_app, _action), _target in per_app(CARD_APPS, _CARD_ACTIONS).items():
    _SERVICE_ROUTES[("payment_card", _app, _action)] = _target
for (_app, _action), _target in per_app(NOTIFICATION_APPS, _NOTIFICATION_ACTIONS).items():
    _SERVICE_ROUTES[("notification", _app, _action)] = _target
for (_app, _action), _target in _SUBSCRIPTION_ROUTES.items():
    _SERVICE_ROUTES[("subscription", _app, _action)] = _target

consolidate(
    "app_service", app="system", toolboxes=("mini",), selectors=("service", "app", "action"),
    selector_docs={"service": "payment_card, notification or subscription", "app": "which app",
                   "action": "what to do"},
    summary="Services shared by several apps: saved payment cards (Amazon, Spotify, Venmo), notifications "
            "(Splitwise, Todoist, Venmo) and subscriptions (Amazon Prime, Spotify Premium).",
    routes=_SERVICE_ROUTES,
)
