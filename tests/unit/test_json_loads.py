"""Reading JSON from the database: orjson's speed, the standard library's exactness (pure)."""

import json
import math

import pytest

from haki.storage.db import json_loads


@pytest.mark.parametrize(
    "doc",
    [
        b'"Lyon"',
        b'{"city": "Lyon", "since": [2021, 3.5], "ok": true, "none": null}',
        b'"\\ud83d\\ude00 caf\\u00e9"',
        b"9223372036854775807",
        b"-0.000001",
    ],
)
def test_ordinary_documents_read_as_the_standard_library_reads_them(doc):
    assert json_loads(doc) == json.loads(doc)


@pytest.mark.parametrize(
    "doc",
    [
        b"123456789012345678901234567890",
        b"18446744073709551616",
        b"-9223372036854775809",
        b'{"account": 12345678901234567890123}',
    ],
)
def test_integers_beyond_64_bits_stay_exact(doc):
    # orjson alone reads these as floats and loses digits.
    value = json_loads(doc)
    assert value == json.loads(doc)
    assert not isinstance(value, float)


def test_a_number_orjson_refuses_reads_as_the_standard_library_reads_it():
    assert math.isinf(json_loads(b"1e400"))
