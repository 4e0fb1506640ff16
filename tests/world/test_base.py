"""The synthetic base world: deterministic per seed, shared, consistent people across apps."""

from mmtsb_env.world.base import base_world


def test_same_seed_same_world_and_cached():
    assert base_world(0) is base_world(0)
    a, b = base_world(0), base_world(3)
    assert a.people[0] != b.people[0]


def test_people_have_unique_emails_and_supervisor():
    w = base_world(0)
    emails = [p.email for p in w.people]
    assert len(set(emails)) == len(emails) and w.person(w.supervisor_id).id == 1


def test_main_tables_are_populated():
    tables = base_world(0).layer.tables
    assert len(tables["simple_note.notes"]) >= 40 and tables["setting.device"][1]["wifi"] is True
