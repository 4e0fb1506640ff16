"""A validate flow over settings screenshots: make the phone's switches match a screenshot.

The user sends a screenshot of another phone's Settings app (their old phone, then perhaps their
work phone) and asks for Wi-Fi, Cellular Data, Location Services and Low Power Mode to match it.
The screenshot also shows switches the ``setting`` app lacks (Airplane Mode, Bluetooth, Do Not
Disturb...), which are left alone. The scenario's starting device row differs from the first
screenshot in one to three of the four columns; the solution reads the four states, then flips
exactly the ones that differ (switching Low Power Mode off first when it blocks the others) and
reports what it changed. The expected changes are on ``setting.device``. A screenshot a round names
keeps Wi-Fi or cellular on (later rounds may need the network); the other screenshots and the
starting row may have Low Power Mode on.

Error correction: the user says one of the switches that differ is already as the screenshot
shows it; the phone says otherwise, and an agent that believes the user leaves it wrong.
"""

from __future__ import annotations

from typing import Any

from . import sinks as S
from .challenges import Slip
from .core import call
from .db_base import DBRecipe, Work
from ..vision.render.settings_screen import REAL

COLUMNS = tuple(REAL)  # wifi, cellular, location_service, low_battery_mode
SETTER = {"wifi": "set_wifi_status", "cellular": "set_cellular_service_status",
          "location_service": "set_location_service_status", "low_battery_mode": "set_low_battery_mode_status"}
GETTER = {"wifi": "get_wifi_status", "cellular": "get_cellular_service_status",
          "location_service": "get_location_service_status", "low_battery_mode": "get_low_battery_mode_status"}
OTHERS = ("wifi", "cellular", "location_service")


def consistent(state: dict[str, bool]) -> bool:
    """A state the setting app can be in: Low Power Mode on keeps the three others off."""
    return not state["low_battery_mode"] or not any(state[c] for c in OTHERS)


def draw_state(rng, low_share: float = 0.2) -> dict[str, bool]:
    if rng.random() < low_share:
        return {"wifi": False, "cellular": False, "location_service": False, "low_battery_mode": True}
    state = {c: rng.random() < 0.55 for c in OTHERS}
    return {**state, "low_battery_mode": False}


def online(state: dict[str, bool]) -> bool:
    return state["wifi"] or state["cellular"]


def match_steps(current: dict[str, bool], target: dict[str, bool]) -> tuple[list[dict[str, Any]], list[str]]:
    """The set calls that take ``current`` to ``target`` (both consistent), and the columns that change."""
    changed = [c for c in COLUMNS if current[c] != target[c]]
    steps: list[dict[str, Any]] = []
    if current["low_battery_mode"] != target["low_battery_mode"]:
        steps.append(call(SETTER["low_battery_mode"], on=target["low_battery_mode"]))
    if not target["low_battery_mode"]:
        now = {c: (False if current["low_battery_mode"] else current[c]) for c in OTHERS}
        steps += [call(SETTER[c], on=target[c]) for c in OTHERS if now[c] != target[c]]
    return steps, changed


def _onoff(v: bool) -> str:
    return "on" if v else "off"


# what the user calls a device -> how its Settings screen names it (the first is the owner's)
DEVICES = (("my old phone", "{first}'s Old Phone"), ("my work phone", "Work Phone"), ("my travel phone", "Travel Phone"),
           ("my backup phone", "Backup Phone"), ("the home tablet", "Home Tablet"), ("the kids' tablet", "Kids' Tablet"))


class SettingsMatch(DBRecipe):
    """Settings screenshots of the user's devices vs this phone: switch the four real toggles to match one.

    Each task round names one device ("match my work phone"); the round's screenshots show several
    devices, each naming itself at the top, so the agent must find the right one, read its four
    switches and flip the ones this phone has differently.
    """

    def __init__(self, b, n, arrival, challenge, budget) -> None:
        super().__init__(b, n, arrival, challenge, budget)
        if self.share is not None:  # a summary that needs no network: the user may have switched it off
            self.share = b.rng.choice([S.NoteSink, S.FileSink])(b)
        self.target: dict[tuple[int, ...], int] = {}  # a task round's images -> the screenshot it names
        current = None
        for slot in self.slots:
            if slot.role != "task":
                continue
            i = b.rng.choice(slot.scope)
            self.target[tuple(slot.scope)] = i
            # a named screenshot keeps a network on (later rounds may mail, text or search) and differs from the last
            while not online(self._state(i)) or self._state(i) == current:
                self._set_state(i, draw_state(b.rng, 0))
            current = self._state(i)
        first = self._state(self.target[next(iter(self.target))])
        while True:
            start = draw_state(b.rng, 0.25)
            if 1 <= sum(start[c] != first[c] for c in COLUMNS) <= 3:
                break
        self.start = self.current = start
        b.add_row("setting.device", {"id": 1, **start})

    def _state(self, i: int) -> dict[str, bool]:
        return dict(self.b.imgs[i].extra["device"])

    def _set_state(self, i: int, state: dict[str, bool]) -> None:
        im = self.b.imgs[i]
        im.extra["device"] = dict(state)
        im.content.update(state)
        im.content["airplane_mode"] = bool(im.content.get("airplane_mode")) and not state["cellular"] and not state["wifi"]

    def setup(self, n):
        b = self.b
        self.spoken: dict[int, str] = {}
        ids = []
        for k in range(min(n, len(DEVICES))):
            said, shown = DEVICES[k]
            i = b.img("settings", device=draw_state(b.rng), device_name=shown.format(first=b.owner.first_name))
            self.spoken[i] = said
            ids.append(i)
        return ids

    def _next_target(self) -> tuple[int, int]:
        """The screenshot the next task round names, and how many screenshots that round covers."""
        scope = self._scopes.pop(0)
        return self.target[tuple(scope)], len(scope)

    def parts(self):
        self._scopes = [list(s.scope) for s in self.slots if s.role == "task"]
        return super().parts()

    def ask(self, r):
        i, n = self._next_target()
        what = "match it" if n == 1 else f"match the one from {self.spoken[i]}"
        head = f"Here's {r}, from {self.spoken[i]}." if n == 1 else f"Here are {r} from a few of my devices."
        return (f"{head} Make Wi-Fi, cellular data, location services and low power mode on this phone {what} "
                "(leave anything else alone), and tell me which ones you changed.")

    def again(self, r):
        i, n = self._next_target()
        where = f"that's {r}" if n == 1 else f"its screenshot is one of {r}"
        return f"Actually, set this phone up like {self.spoken[i]} instead; {where}. Same four settings, and tell me what changed."

    def work(self, scope, first):
        w = Work([call(GETTER[c]) for c in COLUMNS])
        target = self._state(self.target[tuple(scope)])
        steps, changed = match_steps(self.current, target)
        w.steps += steps
        if changed:
            w.bits.append("Turned " + ", ".join(f"{REAL[c]} {_onoff(target[c])}" for c in changed) + ".")
            w.lines += [f"{REAL[c]}: {_onoff(target[c])}" for c in changed]
            w.facts += [REAL[c] for c in changed]
            same = [REAL[c] for c in COLUMNS if c not in changed]
            if same:
                w.bits.append(", ".join(same) + " already matched.")
        else:
            w.bits.append("All four settings already matched.")
        self.current = target
        return w

    def slip(self, scope):
        """The user says a switch that differs is already as the screenshot shows (the phone says otherwise)."""
        b = self.b
        target = self._state(self.target[tuple(scope)])
        differ = [c for c in COLUMNS if self.start[c] != target[c]]
        if not differ:
            return None
        c = b.rng.choice(differ)
        label, want, have = REAL[c], _onoff(target[c]), _onoff(self.start[c])
        claim = b.rng.choice([f"{label} is already {want} on this phone, so you can skip that one.",
                              f"(I already set {label.lower()} to {want} myself earlier.)",
                              f"No need to touch {label.lower()}, it's {want} already."])
        return Slip("state", label, f"{label}: {want}", f"{label} was actually {have} on this phone, so I switched it {want} as well.",
                    claim=claim)
