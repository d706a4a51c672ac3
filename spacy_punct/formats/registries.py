"""What a registry of formats holds, read again only when something new is
registered: other packages' entry points are not scanned for every file of
a folder."""

from typing import Any, Dict, Tuple

import catalogue

_SEEN: Dict[Tuple[str, ...], Tuple[int, Dict[str, Any]]] = {}


def registered(registry: catalogue.Registry) -> Dict[str, Any]:
    """`registry.get_all()`, kept until anything else is registered in this
    process (a format registered later is found, as before); do not change it."""
    size = len(catalogue.REGISTRY)
    seen = _SEEN.get(registry.namespace)
    if seen is None or seen[0] != size:
        contents = registry.get_all()  # may load entry points, which register more
        seen = (len(catalogue.REGISTRY), contents)
        _SEEN[registry.namespace] = seen
    return seen[1]
