from haki import errors


def test_every_error_has_a_distinct_wire_code_and_status():
    classes = [
        c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.HakiError)
    ]
    codes = [c.code for c in classes]
    assert len(codes) == len(set(codes))
    assert all(400 <= c.status <= 599 for c in classes)


def test_envelope_shape():
    exc = errors.MissingScope("events[3].subject_id is required", field="events[3].subject_id")
    assert exc.envelope() == {
        "error": {
            "type": "missing_scope",
            "message": "events[3].subject_id is required",
            "field": "events[3].subject_id",
        }
    }
    assert exc.status == 422 and isinstance(exc, errors.InvalidPayload)


def test_docstring_tree_lists_every_class():
    classes = [
        n
        for n, c in vars(errors).items()
        if isinstance(c, type) and issubclass(c, errors.HakiError)
    ]
    for name in classes:
        assert name in errors.__doc__
