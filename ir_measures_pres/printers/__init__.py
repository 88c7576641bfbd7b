"""Printers of the tool replicas: the lines a reference tool prints (trec_eval, ntcir_eval,
tar_eval, NTCIREVAL's diversity scripts, statAP_MQ_eval_v3.pl, sample_eval.pl), byte for byte,
from numbers already computed. One module per tool, one interface.

**The interface.** Each printer module has one function, ``lines``, that takes the per-topic
values one run gave (already computed by the measures, in the tool's own record of them) and
the tool's output options, and returns the tool's text for that run: a ``str`` whose every line
ends in a newline, the bytes the tool prints::

    text = printer.lines(values, *options)

The six, each with its values (and what computes them) and its options:

* :mod:`.trec_eval`: a ``Tally`` (:func:`ir_measures_pres.measures.trec_eval.tally.tally`);
  the run id, ``-q``, ``-n``, ``-Z``'s z-scores, ``-c``'s ``num_rel`` summary.
* :mod:`.ntcir`: a ``ComputeRun`` (:func:`ir_measures_pres.measures.ntcir.compute.compute_run`);
  the printed names (:func:`.ntcir.measure_lines`), the digits, ``--mean``.
* :mod:`.tar`: a run's rows and notices (:func:`.tar.rows` of the tools' per-topic figures,
  :mod:`ir_measures_pres.measures.tar.tools`, made by :class:`ir_measures_pres.engine.tar.Evaluation`);
  the edition, the format (the tool's, tsv, jsonl), the run's name, several runs, notices
  among the lines.
* :mod:`.diversity`: a ``ScriptValues``
  (:func:`ir_measures_pres.measures.diversity.scripts.script_values`); the digits.
* :mod:`.statap`: a ``StatapRun`` (:func:`ir_measures_pres.measures.sampled.statap.statap_run`);
  ``-q``.
* :mod:`.sample_eval`: a ``SampleEvalRun``
  (:func:`ir_measures_pres.measures.sampled.sample_eval.sample_eval_run`); ``-q``.

**Who does what.** A replica has three parts, and each lives once. The numbers are the
measures' (:mod:`ir_measures_pres.measures`: the estimators and, for a whole run, what the tool
computes, its sums in its order included). The lines are a printer's, here, formatting only:
the tool's names, tabs, widths, topic order and number formats, which topics it prints, and
the few figures a tool makes while printing, from the values or from its own printed text
(trec_eval's summary line of each measure and ``-Z``'s z-scores, the TAR tools' ``ALL`` lines,
NEV2mean's ``ALL`` means of printed values, the diversity scripts' awk lines). The command
(:mod:`ir_measures_pres.cli`) is thin: it parses the options, reads the files, asks the measures
for the values, writes what the printer returns, warns, and follows the commands' one policy for
several runs (:mod:`ir_measures_pres.cli._runs`: the several-runs header lines are the
command's, but for ``tar``'s ``ALL runid NAME`` line in the tool's format, which
:func:`.tar.lines` writes). A printer never reads a file nor ranks a run.

Beside ``lines``: the TAR printer lays out a run's rows and notices (:func:`.tar.rows`) and
gives the notices for standard error (:func:`.tar.notice_lines`); the trec_eval printer lends
its line format to the main command's ``--format trec`` (:func:`.trec_eval.format_line`); the
diversity printer also writes what NEV2mean, NEVIA2nev and Topicsys-matrix make of a script's
file, and names the files; statAP keeps its documented shortcuts for a Python caller,
:func:`.statap.write_statap` (files in, text out) and :func:`.statap.statap_text`. Perl's ways
with numbers, which both the numbers (the order a tool adds its topics) and the lines follow,
are in :mod:`ir_measures_pres.data.perl`.

The printers sit on the floor above the measures (they format what the measures compute) and
below the commands.
"""
