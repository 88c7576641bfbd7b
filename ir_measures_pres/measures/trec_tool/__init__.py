"""trec_eval 10.0 as a tool: its ranked relevance lists, its measures, its table of names.

The ``ir_measures_pres trec_eval`` command (:mod:`ir_measures_pres.cli.trec_eval`) prints what
the C program prints. Its parts:

* :mod:`.lists` builds, once per run, trec_eval's ranked relevance list of every query
  (``form_res_rels``: score as a double descending, docno descending, ``-M``, ``-J``) and its
  judgement counts per relevance level, as flat arrays over per-query offsets;
* :mod:`.kernels` computes each measure for every query at once (numpy over the offsets, no
  Python loop over documents), following the C code's arithmetic where it decides a digit;
* :mod:`.prefs` computes the preference measures of ``-R prefs`` / ``-R qrels_prefs``
  (``form_prefs_counts``); :mod:`.lists` also lays out ``-R qrels_jg``'s judgement groups;
* :mod:`.table` is the measure table: trec_eval's order, names, parameter forms, defaults,
  nicknames, how each is averaged and printed, which ``-R`` format it reads, and its
  description in our words.

The measures that trec_eval 10 shares with the package's registered ``unj``, ``rbp``,
``rbp_resid`` and ``yaap`` are asked of :mod:`ir_measures_pres.measures.trec_eval10`.
"""
