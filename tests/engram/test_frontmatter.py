import pytest

from haki.engram.body import sections
from haki.engram.errors import FrontmatterError, SchemaError
from haki.engram.frontmatter import parse
from haki.engram.memory import from_fields


def test_parses_fields_and_body() -> None:
    fields, body, line = parse(
        "---\nid: a\ntype: rule\nvalid_until: 2025-01-01\n---\n# T\n", "a.md"
    )
    assert fields == {"id": "a", "type": "rule", "valid_until": "2025-01-01"}
    assert body == "# T\n"
    assert line == 6


def test_duplicate_keys_are_rejected_with_file_and_line() -> None:
    with pytest.raises(FrontmatterError) as err:
        parse("---\nid: a\ntype: rule\nid: b\n---\n", "rules/a.md")
    assert err.value.path == "rules/a.md"
    assert err.value.line == 4
    assert "duplicate key 'id'" in str(err.value)


def test_aliases_are_rejected() -> None:
    with pytest.raises(FrontmatterError, match="aliases"):
        parse("---\nid: &x a\ntype: *x\n---\n", "a.md")


def test_python_tags_are_rejected() -> None:
    with pytest.raises(FrontmatterError):
        parse("---\nid: !!python/object/apply:os.system ['true']\n---\n", "a.md")


def test_bad_yaml_reports_the_file_line() -> None:
    with pytest.raises(FrontmatterError) as err:
        parse("---\nid: a\ntags: [one, two\n---\n", "a.md")
    assert err.value.line >= 3
    assert str(err.value).startswith("a.md:")


def test_missing_frontmatter_is_an_error() -> None:
    with pytest.raises(FrontmatterError, match="missing frontmatter"):
        parse("# just markdown\n", "a.md")


def test_schema_rejects_bad_type_and_id() -> None:
    with pytest.raises(SchemaError, match="type"):
        from_fields({"id": "a", "type": "essay"}, "", "a.md")
    with pytest.raises(SchemaError, match="slug"):
        from_fields({"id": "Not A Slug", "type": "rule"}, "", "a.md")
    with pytest.raises(SchemaError, match="depend on itself"):
        from_fields({"id": "a", "type": "rule", "depends_on": ["a"]}, "", "a.md")


def test_only_the_content_section_is_visible() -> None:
    title, content = sections(
        "# Title\n\n## Content\n\nshown\n\n## Context\n\nhidden\n\n## Example\n\nhidden too\n"
    )
    assert title == "Title"
    assert content == "shown"


def test_headings_inside_code_fences_do_not_split_sections() -> None:
    _, content = sections("## Content\n\n```md\n## Origin\n```\nafter\n")
    assert "## Origin" in content and "after" in content
