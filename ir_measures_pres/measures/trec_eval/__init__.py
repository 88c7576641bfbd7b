"""trec_eval's family, everything of it in one place: the ``ir_measures_pres trec_eval`` command
(:mod:`ir_measures_pres.cli.trec_eval`) reproduces trec_eval 10.0 byte for byte, and ir_measures
users get its names and the measures pytrec_eval's bundled trec_eval 9 lacks. Its parts:

* :mod:`.names` reads trec_eval's measure names as ir_measures reads them and writes them as
  trec_eval prints them (the catalogue's part for ir_measures' standard measures);
  :mod:`.parse_names` lets ``ir_measures.parse_trec_measure`` (PyTerrier's path) read them all;
* :mod:`.judgement_aware` holds trec_eval 10's ``unj``, ``rbp``, ``rbp_resid`` and ``yaap``,
  registered measures which the tool's table asks too;
* :mod:`.lists` builds, once per run, trec_eval's ranked relevance list of every query
  (``form_res_rels``: score as a double descending, docno descending, ``-M``, ``-J``) and its
  judgement counts per relevance level, as flat arrays over per-query offsets;
* :mod:`.kernels` computes each measure for every query at once (numpy over the offsets, no
  Python loop over documents), following the C code's arithmetic where it decides a digit;
  :mod:`.measures` registers those ir_measures lacks (``gm_map``, ``Rndcg``, ``utility`` ...);
* :mod:`.prefs` computes the preference measures of ``-R prefs`` / ``-R qrels_prefs``
  (``form_prefs_counts``); :mod:`.lists` also lays out ``-R qrels_jg``'s judgement groups;
* :mod:`.table` is the measure table: trec_eval's order, names, parameter forms, defaults,
  nicknames, how each is averaged and printed, which ``-R`` format it reads, and its
  description in our words.

* :mod:`.tally` holds a results file's per-query values of the selected measures, one column
  per printed name, before they are printed.

Its lines are printed by :mod:`ir_measures_pres.printers.trec_eval`.
"""
