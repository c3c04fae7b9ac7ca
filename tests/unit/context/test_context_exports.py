"""The package's public surface stays what ``__all__`` says."""

import types

from haki import context


def test_all_is_exactly_the_public_names():
    public = {
        n
        for n, v in vars(context).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType)
    }
    assert sorted(context.__all__) == sorted(public)
