"""The statement that binds a transaction to its project and settings (pure)."""

from haki.storage.db import local_settings


def test_settings_are_parameters_in_name_order_after_the_project():
    sql, params = local_settings({"b.two": "2", "a.one": "1"}, "proj")
    assert sql == (
        "SELECT set_config('app.project_id', %s, true), "
        "set_config(%s, %s, true), set_config(%s, %s, true)"
    )
    assert params == ["proj", "a.one", "1", "b.two", "2"]


def test_without_a_project_only_the_settings_are_set():
    sql, params = local_settings({"synchronous_commit": "off"})
    assert sql == "SELECT set_config(%s, %s, true)"
    assert params == ["synchronous_commit", "off"]


def test_one_trip_begin_carries_the_same_calls_as_literals():
    """``storage.begin``: the project first, then the settings by name, quoted."""
    from haki.storage.begin import begin_statement

    stmt = begin_statement({"b.two": "2", "a.one": "it's"}, "pro'j")
    assert stmt == (
        b"BEGIN; SELECT set_config('app.project_id', 'pro''j', true), "
        b"set_config('a.one', 'it''s', true), set_config('b.two', '2', true)"
    )
    assert begin_statement({}, "p") == b"BEGIN; SELECT set_config('app.project_id', 'p', true)"
    assert begin_statement({}, None) == b"BEGIN"
