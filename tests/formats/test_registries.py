"""A registry's contents, kept until something else is registered."""

import catalogue

from spacy_punct.formats.registries import registered


def test_the_contents_are_kept_until_something_is_registered():
    registry = catalogue.create("spacy_punct_test", "kept", entry_points=False)
    registry.register("a", func=1)
    first = registered(registry)
    assert first == {"a": 1} and registered(registry) is first  # read once
    registry.register("b", func=2)
    assert registered(registry) == {"a": 1, "b": 2}  # a later registration is found
