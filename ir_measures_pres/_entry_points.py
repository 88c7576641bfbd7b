"""Target of the ``ir_measures.provider`` entry point, for ir_measures versions that discover plugins.

Released ir_measures (0.4.x) has no plugin discovery: there, ``import ir_measures_pres`` registers
everything. Upstream's unmerged ``entry-points`` branch loads the group ``ir_measures.provider``
while ``ir_measures.providers`` is still being imported, as
``registry.update({ep.name: ep.load()() for ep in entry_points(group='ir_measures.provider')})``,
and then builds ``DefaultPipeline`` from that registry (third-party providers, at the default
``PRIORITY`` 0.0, after the built-ins). Declared as::

    [project.entry-points."ir_measures.provider"]
    ir_measures_pres = "ir_measures_pres._entry_points:provider"

Two rules keep the provider from being in the pipeline twice when both mechanisms fire:

* the entry point's *name* is the provider's ``NAME`` (``ir_measures_pres``), so the registry
  keeps one key for it whoever registers first;
* :func:`provider` is called where a class would be (``ep.load()()``) and returns the instance
  that loading the package has already registered, so the registry, the pipeline and
  ``register()``'s guard by ``NAME`` all see one object.
"""

from __future__ import annotations

import sys

from .engine.provider import PresProvider


def provider() -> PresProvider:
    """The provider instance ir_measures should hold: the registered one, else a new one.

    Looks the registry up through ``sys.modules`` only, so it works while ``ir_measures`` is
    half-imported and touches neither ``ir_measures.DefaultPipeline`` nor anything built after it.
    """
    registry = None
    for module_name in ("ir_measures.providers", "ir_measures.providers.base"):
        registry = getattr(sys.modules.get(module_name), "registry", None)
        if isinstance(registry, dict):
            break
    existing = registry.get(PresProvider.NAME) if isinstance(registry, dict) else None
    if isinstance(existing, PresProvider):
        return existing
    return PresProvider()
