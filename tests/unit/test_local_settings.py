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
