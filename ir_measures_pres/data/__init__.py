"""The data layer: what every evaluation starts from.

The strict TREC readers (:mod:`.readers`; a run in blocks of whole queries: :mod:`.runblocks`),
the validation boundary that turns any input ir_measures accepts into checked columns
(:mod:`.inputs`), qrels grouped by query
(:mod:`.qrels`), the package's one ranking rule (:mod:`.ranking`), column 2 of TAR screening
runs (:mod:`.column2`), duplicate lines (:mod:`.duplicates`), per-query offset arrays
(:mod:`.arrays`, with the sums in a tool's order), Perl's reading of numbers (:mod:`.perl`),
run-file listing (:mod:`.runfiles`) and optional dependencies (:mod:`.extras`). It imports
nothing else of the package but :mod:`ir_measures_pres.runtime` (a reader in a forked worker
starts no thread). ``sample/``
holds the quick start's collection.
"""
