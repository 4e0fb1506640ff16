"""Account tools shared by the online apps (signup, login, profile, password reset...).

Every online app has a ``<app>.users`` table with the same people (same ids) and the device
owner logged in at the start. ``define_accounts("todoist")`` (in the app's ``tables.py``)
declares the table and registers a ``login:<app>`` requirement; ``define_account_tools("todoist")``
(in its ``tools.py`` or ``tools/__init__.py``, before its other tools) registers the app's account
tools, with the reference's names.
"""

from __future__ import annotations

from typing import Any, Callable

from ..tools import Conflict, InvalidArgument, NotFound, PermissionDenied, requirement, tool
from ..world import define_table
from ..world.populators import BaseBuilder, populator
from ._common import now_str, public_user

SESSIONS = "device.app_sessions"
CODES = "device.verification_codes"

define_table(SESSIONS, key="app", columns={"app": None, "user_id": None, "logged_in": True})
define_table(CODES, columns={"id": None, "app": "", "identity": "", "purpose": "", "code": "", "used": False})

ALL_ACCOUNT_TOOLS = (
    "show_account", "signup", "delete_account", "update_account_name", "login", "logout",
    "send_verification_code", "verify_account", "send_password_reset_code", "reset_password",
    "show_profile",
)


def users_table(app: str) -> str:
    return f"{app}.users"


def logged_in_user(world: Any, app: str) -> dict[str, Any]:
    session = world.get(SESSIONS, app)
    if session is None or not session["logged_in"]:
        raise PermissionDenied(f"you are not logged in to {app}; call {app}_login first")
    user = world.get(users_table(app), session["user_id"])
    if user is None:
        raise PermissionDenied(f"your {app} account no longer exists")
    return user


def define_accounts(app: str, *, extra_columns: dict[str, Any] | None = None) -> None:
    """Declare ``<app>.users``, populate it from the cast and register the ``login:<app>``
    requirement (an app's ``tables.py``; its account tools: :func:`define_account_tools`)."""
    table = users_table(app)
    columns = {
        "id": None, "first_name": "", "last_name": "", "email": None, "phone_number": None,
        "password": "", "verified": True, "status": "active", "created_at": None, "last_logged_in": None,
        **(extra_columns or {}),
    }
    define_table(table, columns=columns, auto_columns=("created_at", "last_logged_in"))

    @requirement(f"login:{app}")
    def _check_login(world: Any) -> str | None:
        session = world.get(SESSIONS, app)
        if session is None or not session["logged_in"]:
            return f"you are not logged in to {app}; call {app}_login with the password from supervisor_show_account_passwords"
        return None

    @populator(app, order=10)
    def _populate(b: BaseBuilder) -> None:
        for p in b.people:
            created = b.past(900, 400).isoformat()
            b.add(table, {
                "id": p.id, "first_name": p.first_name, "last_name": p.last_name, "email": p.email,
                "phone_number": p.phone_number, "password": p.password, "created_at": created,
                "last_logged_in": created,
            })
        b.add(SESSIONS, {"app": app, "user_id": b.supervisor.id, "logged_in": True})


def define_account_tools(
    app: str,
    *,
    identity: str = "email",
    include: tuple[str, ...] = ALL_ACCOUNT_TOOLS,
    requires: tuple[str, ...] = ("network",),
) -> None:
    """Register the app's account tools ``<app>_<name>`` for each name of ``include`` (an app's
    ``tools.py``, after :func:`define_accounts` in its ``tables.py``); ``identity`` is the column
    an account is known by (``email``, or ``phone_number`` for the phone)."""
    table = users_table(app)
    login_req = f"login:{app}"

    def find_by_identity(world: Any, value: str) -> dict[str, Any] | None:
        return world.first(table, **{identity: value})

    def register(name: str, fn: Callable[..., Any], *, writes: bool, needs_login: bool) -> None:
        reqs = requires + ((login_req,) if needs_login else ())
        tool(app=app, writes=writes, requires=reqs, name=f"{app}_{name}")(fn)

    def _create_account(world: Any, first_name: str, last_name: str, value: str, password: str) -> dict:
        if find_by_identity(world, value) is not None:
            raise Conflict(f"an account with {identity} {value} already exists")
        if len(password) < 6:
            raise InvalidArgument("password must have at least 6 characters")
        row = world.insert(table, {
            "id": world.new_id(table), "first_name": first_name, "last_name": last_name,
            identity: value, "password": password, "verified": False,
            "created_at": now_str(world), "last_logged_in": None,
        })
        return {"message": "Account created; verify it with the code sent to you.", "user_id": row["id"]}

    def show_account(world) -> dict:
        """Show your own account details (private information included)."""
        user = logged_in_user(world, app)
        return {k: v for k, v in user.items() if k != "password"}

    def signup(world, first_name: str, last_name: str, email: str, password: str) -> dict:
        """Create a new account.

        Args:
            first_name: first name of the account holder.
            last_name: last name of the account holder.
            email: email address (must not be registered yet).
            password: password (at least 6 characters).
        """
        return _create_account(world, first_name, last_name, email, password)

    def signup_phone(world, first_name: str, last_name: str, phone_number: str, password: str) -> dict:
        """Create a new phone account.

        Args:
            first_name: first name of the account holder.
            last_name: last name of the account holder.
            phone_number: phone number (must not be registered yet).
            password: password (at least 6 characters).
        """
        return _create_account(world, first_name, last_name, phone_number, password)

    def delete_account(world) -> dict:
        """Delete your account permanently; you are logged out."""
        user = logged_in_user(world, app)
        world.delete(table, user["id"])
        world.update(SESSIONS, app, logged_in=False)
        return {"message": "Account deleted."}

    def update_account_name(world, first_name: str | None = None, last_name: str | None = None) -> dict:
        """Change the first and/or last name on your account.

        Args:
            first_name: new first name (unchanged if omitted).
            last_name: new last name (unchanged if omitted).
        """
        if first_name is None and last_name is None:
            raise InvalidArgument("give first_name, last_name or both")
        user = logged_in_user(world, app)
        changes = {k: v for k, v in (("first_name", first_name), ("last_name", last_name)) if v is not None}
        row = world.update(table, user["id"], **changes)
        return {"message": "Name updated.", "first_name": row["first_name"], "last_name": row["last_name"]}

    def login(world, username: str, password: str) -> dict:
        """Log in to the app.

        Args:
            username: the account's email address (phone number for the phone app).
            password: the account password.
        """
        user = find_by_identity(world, username)
        if user is None or user["password"] != password:
            raise PermissionDenied("invalid username or password")
        if world.exists(SESSIONS, app):
            world.update(SESSIONS, app, user_id=user["id"], logged_in=True)
        else:
            world.insert(SESSIONS, {"app": app, "user_id": user["id"], "logged_in": True})
        world.update(table, user["id"], last_logged_in=now_str(world))
        return {"message": f"Logged in to {app}.", "user_id": user["id"]}

    def logout(world) -> dict:
        """Log out of the app."""
        logged_in_user(world, app)
        world.update(SESSIONS, app, logged_in=False)
        return {"message": f"Logged out of {app}."}

    def _issue_code(world: Any, value: str, purpose: str) -> dict:
        if find_by_identity(world, value) is None:
            raise NotFound(f"no account with {identity} {value}")
        code_id = world.new_id(CODES)
        code = f"{(code_id * 7919 + len(value) * 104729) % 900000 + 100000}"
        world.insert(CODES, {"id": code_id, "app": app, "identity": value, "purpose": purpose, "code": code})
        return {"message": f"A {purpose.replace('_', ' ')} code was sent to {value}."}

    def _redeem_code(world: Any, value: str, purpose: str, code: str, **changes: Any) -> None:
        """Use up a matching unused code, then apply ``changes`` to the account it was sent for."""
        for row in world.select(CODES, app=app, identity=value, purpose=purpose, used=False):
            if row["code"] == code:
                world.update(CODES, row["id"], used=True)
                world.update(table, find_by_identity(world, value)["id"], **changes)
                return
        raise PermissionDenied(f"invalid or expired {purpose.replace('_', ' ')} code")

    def send_verification_code(world, email: str) -> dict:
        """Send an account verification code to an email address.

        Args:
            email: the email address of the account.
        """
        return _issue_code(world, email, "verification")

    def verify_account(world, email: str, verification_code: str) -> dict:
        """Verify an account with the code that was sent.

        Args:
            email: the email address of the account.
            verification_code: the code received.
        """
        _redeem_code(world, email, "verification", verification_code, verified=True)
        return {"message": "Account verified."}

    def send_password_reset_code(world, email: str) -> dict:
        """Send a password reset code.

        Args:
            email: the email address of the account.
        """
        return _issue_code(world, email, "password_reset")

    def reset_password(world, email: str, password_reset_code: str, new_password: str) -> dict:
        """Set a new password using a password reset code.

        Args:
            email: the email address of the account.
            password_reset_code: the code received.
            new_password: the new password (at least 6 characters).
        """
        if len(new_password) < 6:
            raise InvalidArgument("new_password must have at least 6 characters")
        _redeem_code(world, email, "password_reset", password_reset_code, password=new_password)
        return {"message": "Password reset."}

    def send_password_reset_code_phone(world, phone_number: str) -> dict:
        """Send a password reset code by text message.

        Args:
            phone_number: the phone number of the account.
        """
        return _issue_code(world, phone_number, "password_reset")

    def reset_password_phone(world, phone_number: str, password_reset_code: str, new_password: str) -> dict:
        """Set a new password using a password reset code.

        Args:
            phone_number: the phone number of the account.
            password_reset_code: the code received.
            new_password: the new password (at least 6 characters).
        """
        return reset_password(world, phone_number, password_reset_code, new_password)

    def _public_profile(world: Any, column: str, value: str | None) -> dict:
        if value is None:
            return public_user(logged_in_user(world, app))
        user = world.first(table, **{column: value})
        if user is None:
            raise NotFound(f"no {app} user with {column.replace('_', ' ')} {value}")
        return public_user(user)

    def show_profile(world, email: str | None = None) -> dict:
        """Show the public profile of a user (your own if no email is given).

        Args:
            email: email address of the user to show.
        """
        return _public_profile(world, "email", email)

    def show_profile_phone(world, phone_number: str | None = None) -> dict:
        """Show the public profile of a phone user (your own if no number is given).

        Args:
            phone_number: phone number of the user to show.
        """
        return _public_profile(world, "phone_number", phone_number)

    phone = identity == "phone_number"
    chosen = {
        "show_account": (show_account, False, True),
        "signup": (signup_phone if phone else signup, True, False),
        "delete_account": (delete_account, True, True),
        "update_account_name": (update_account_name, True, True),
        "login": (login, True, False),
        "logout": (logout, True, True),
        "send_verification_code": (send_verification_code, True, False),
        "verify_account": (verify_account, True, False),
        "send_password_reset_code": (send_password_reset_code_phone if phone else send_password_reset_code, True, False),
        "reset_password": (reset_password_phone if phone else reset_password, True, False),
        "show_profile": (show_profile_phone if phone else show_profile, False, True),
    }
    for name in include:
        fn, writes, needs_login = chosen[name]
        register(name, fn, writes=writes, needs_login=needs_login)
