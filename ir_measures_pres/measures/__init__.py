"""The measures: one module per family (classes and their numpy kernels) and the catalogue.

:mod:`.catalogue` is the one table of the package's measures and the one reader of measure
names, with :mod:`.trec_eval` (trec_eval's name syntax) below it and :mod:`.trec_names` (which
lets ``ir_measures.parse_trec_measure`` read those names) above it. :mod:`.normalized_recall`
(PRES, R_norm), :mod:`.blended_ratio` (Q/O/P/P+), :mod:`.bpref` (Bpref-10), :mod:`.tar` (the
CLEF TAR family), :mod:`.textbook` (Modern Information Retrieval's chapter: APSeen, F, E,
Coverage ..., CG, DCG) and :mod:`.standard` (native kernels of standard measures, for repeated
scoring) hold the families; :mod:`.base` their shared class.
Kernels read ranked lists of :mod:`ir_measures_pres.data`; nothing here reads files (the
textbook's ``known=FILE`` is read by :mod:`ir_measures_pres.data.known`) or scores runs (that
is :mod:`ir_measures_pres.engine`).
"""
