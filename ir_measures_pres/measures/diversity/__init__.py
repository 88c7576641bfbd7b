"""The intent-aware diversity family: NTCIREVAL 190111's diversity scripts (D-, D#-, DIN-measures,
I-rec; Sakai and Song, SIGIR 2011) and the intent-aware IA-* measures: the kernels (:mod:`.kernels`),
the registered measures (:mod:`.measures`), where their judgements come from (:mod:`.scoring`)
and what each script computes for a run (:mod:`.scripts`; its lines:
:mod:`ir_measures_pres.printers.diversity`)."""
