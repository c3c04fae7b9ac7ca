import haki.engram as engram


def test_all_lists_exactly_the_public_names() -> None:
    # The loader's names are imported on first use: resolve them all first, so
    # the answer does not depend on which test imported them before.
    for name in engram.__all__:
        getattr(engram, name)
    public = {name for name in vars(engram) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(engram, name)).__name__ == "module"}
    assert set(engram.__all__) == public - modules
    assert engram.__all__ == sorted(engram.__all__)
