"""The console's pure parts: chart geometry, CSRF tokens, device codes."""

from __future__ import annotations

from haki.auth.device import normalise_user_code
from haki.console.charts import HEIGHT, WIDTH, bar_chart, share_width
from haki.console.session import Session, csrf_ok, csrf_token


def test_bars_scale_to_the_peak_and_stay_inside():
    chart = bar_chart("events", [("a", 0), ("b", 5), ("c", 10)])
    heights = [b.height for b in chart.bars]
    assert heights[0] == 0 and heights[2] == max(heights) and heights[1] == heights[2] / 2
    assert all(b.x >= 0 and b.x + b.width <= WIDTH for b in chart.bars)
    assert all(b.y >= 0 and b.y + b.height <= HEIGHT for b in chart.bars)


def test_an_all_zero_or_empty_series_draws_flat():
    assert all(b.height == 0 for b in bar_chart("x", [("a", 0), ("b", 0)]).bars)
    assert bar_chart("x", []).bars == ()


def test_share_width_is_clamped():
    assert share_width(None) == 0 and share_width(-1) == 0
    assert share_width(0.5) == WIDTH / 2 and share_width(2) == WIDTH


def test_csrf_token_is_bound_to_the_session_and_the_key():
    session = Session("sid-1", "hk_key", "p")
    assert csrf_ok(session, session.csrf)
    assert not csrf_ok(session, None) and not csrf_ok(session, "")
    assert not csrf_ok(session, csrf_token("sid-2", "hk_key"))
    assert not csrf_ok(session, csrf_token("sid-1", "hk_other"))


def test_user_codes_read_the_same_however_typed():
    assert normalise_user_code("bcdf ghjk") == normalise_user_code("BCDF-GHJK") == "BCDF-GHJK"
