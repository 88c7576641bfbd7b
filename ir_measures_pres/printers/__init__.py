"""Printers of the tool replicas: the lines a reference tool prints (sample_eval.pl,
statAP_MQ_eval_v3.pl ...), byte for byte, from numbers already computed.

Why a home of their own: a replica has three parts, and each lives once. The numbers are the
measures' (:mod:`ir_measures_pres.measures`: the estimators and, for a whole run, what the tool
computes, its sums in its order included); the lines are a printer's, here, formatting only
(the tool's names, tabs, widths, topic order and number formats); the command
(:mod:`ir_measures_pres.cli`) only reads the files, asks the first, writes what the second
returns and follows the commands' one policy for several runs. A Python caller asks a printer
for the same text the command writes (:func:`.statap.write_statap`). Perl's ways with numbers,
which both the numbers (the order a tool adds its topics) and the lines follow, are in
:mod:`ir_measures_pres.data.perl`.

The printers sit on the floor above the measures (they format what the measures compute) and
below the commands.
"""
