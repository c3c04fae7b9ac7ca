"""A schedule's hours keep their half of the day when one end says it."""

import pytest

from haki.providers.extraction.schedules import typed_schedule


@pytest.mark.parametrize(
    ("said", "typed"),
    [
        # Crossing midnight: the other end is in the other half.
        ("I work nights, 10pm to 6", "10pm-6am"),
        ("nights from 10 to 6am", "10pm-6am"),
        # 12 comes first on the 12-hour clock: noon to 2pm, midnight to 6am.
        ("lunch shift 12 to 2pm", "12pm-2pm"),
        ("on call 12 to 6am", "12am-6am"),
        ("9am to 12", "9am-12pm"),
        # Unchanged: the same half, or a bare working day.
        ("9 to 11pm", "9pm-11pm"),
        ("11 to 2pm", "11am-2pm"),
        ("9 to 5", "9am-5pm"),
        # A 24-hour clock without "h" has no half to infer.
        ("22 to 6", None),
    ],
)
def test_the_half_of_the_day_follows_the_end_that_says_it(said: str, typed: str | None) -> None:
    assert typed_schedule(said) == typed
