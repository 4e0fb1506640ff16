"""Fixtures for the sandbox tests: a fake phone with side-effect counters."""

from __future__ import annotations

import pytest

from mmtsb_env.sandbox import Interpreter, Limits


class NotFound(Exception):
    kind = "not_found"


class FakePhone:
    """Three provided functions over a private note store; ``calls`` counts every invocation."""

    def __init__(self) -> None:
        self.calls = 0
        self.notes = [
            {"id": 1, "title": "Trip to Rome", "content": "Flights on May 3", "tags": ["travel"]},
            {"id": 2, "title": "Groceries", "content": "milk, eggs", "tags": ["home"]},
            {"id": 3, "title": "Rome hotels", "content": "Hotel Artemide", "tags": ["travel", "rome"]},
        ]

    def functions(self) -> dict:
        return {
            "simple_note_search_notes": self.search_notes,
            "simple_note_create_note": self.create_note,
            "simple_note_delete_note": self.delete_note,
            "api_docs_search_api_docs": self.search_docs,
        }

    def search_notes(self, query: str = "") -> list:
        self.calls += 1
        q = query.lower()
        return [n for n in self.notes if q in n["title"].lower() or q in n["content"].lower()]

    def create_note(self, title: str, content: str = "", tags: list | None = None) -> dict:
        self.calls += 1
        if not title:
            raise ValueError("title must not be empty")
        note = {"id": len(self.notes) + 1, "title": title, "content": content, "tags": list(tags or [])}
        self.notes.append(note)
        return note

    def delete_note(self, note_id: int) -> dict:
        self.calls += 1
        for note in self.notes:
            if note["id"] == note_id:
                self.notes.remove(note)
                return {"deleted": note_id}
        raise NotFound(f"note {note_id} does not exist")

    def search_docs(self, query: str) -> list:
        self.calls += 1
        return [{"name": "simple_note_search_notes", "description": "Search notes by text."}]


@pytest.fixture
def phone() -> FakePhone:
    return FakePhone()


MODES = ("process", "thread")  # the default clean worker process, and the in-process opt-in


@pytest.fixture(params=MODES)
def mode(request) -> str:
    return request.param


@pytest.fixture
def interp(phone: FakePhone, mode: str):
    it = Interpreter(phone.functions(), Limits(timeout_s=2.0, soft_memory_mb=512, isolation=mode))
    yield it
    it.close()
