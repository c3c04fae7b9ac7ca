"""The benchmark recipes live in bench/, register by name and are not product recipes."""

from dataclasses import fields

import pytest

from bench_modules import load_bench
from haki.context import config


@pytest.fixture
def bench_recipes(monkeypatch):
    monkeypatch.setattr(config, "RECIPES", dict(config.RECIPES))
    return load_bench("recipes.py", "bench_recipes")


def test_product_recipes_are_default_and_wide_recall_only():
    assert sorted(config.RECIPES) == ["default", "wide_recall"]


def test_registering_makes_every_ablation_selectable(bench_recipes):
    bench_recipes.register_all()
    bench_recipes.register_all()  # the same values again: allowed
    for cfg in bench_recipes.ABLATIONS:
        assert config.recipe(cfg.name).name == cfg.name


def test_each_ablation_changes_the_default(bench_recipes):
    for cfg in bench_recipes.ABLATIONS:
        changed = {
            f.name
            for f in fields(cfg)
            if f.name != "name" and getattr(cfg, f.name) != getattr(config.DEFAULT, f.name)
        }
        assert changed, cfg.name


def test_a_name_is_never_redefined(bench_recipes):
    bench_recipes.register_all()
    with pytest.raises(ValueError, match="already registered"):
        config.register(bench_recipes.ablation("no_session", episode_top_k=3))
