"""The measures: the catalogue at this floor, one subpackage per family below it.

The catalogue: :mod:`.table` (one :class:`~.entry.Entry` per measure: aliases, kernel, trec-style
name, summary, direction), :mod:`.catalogue` (the one reader and writer of measure names),
:mod:`.entry`, :mod:`.direction`, :mod:`.summary`, :mod:`._syntax`, :mod:`.bounds_spec` and
:mod:`.base` (the families' shared class). The families, each a folder whose ``__init__`` says
what it is and which tool or paper it reproduces: :mod:`.recall` (PRES, R_norm, Bpref-10),
:mod:`.ntcir` (NTCIREVAL's compute, Sakai's Q/O/P/P+ included), :mod:`.diversity`,
:mod:`.trec_eval` (trec_eval's names, 10.0's judgement-aware measures, the tool's lists, kernels
and table), :mod:`.sampled` (sample_eval, statAP), :mod:`.tar` (CLEF TAR), :mod:`.textbook` and
:mod:`.standard` (native kernels of standard measures, for repeated scoring).

Kernels read ranked lists of :mod:`ir_measures_pres.data`; nothing here reads files (the
textbook's ``known=FILE`` is read by :mod:`ir_measures_pres.data.known`) or scores runs (that
is :mod:`ir_measures_pres.engine`); the tools' lines are :mod:`ir_measures_pres.printers`'.
"""
