"""The one evaluation engine: runs scored with any mix of measures.

:mod:`.provider` is the ir_measures provider of the package's measures, :mod:`.backend` feeds the
standard measures to pytrec_eval, :mod:`.evaluation` combines both for a stream of runs (the main
command), :mod:`.streaming` scores a run block by block of whole queries in bounded memory (the
main command's path for every run; :class:`~.block_evaluator.BlockEvaluator` from Python),
:mod:`.scores` scores many runs into a :class:`~.scores.Scores` table (runs x measures x topics)
for ``compare``, the meta-evaluation and the statistics, and :mod:`.tar` scores
technology-assisted review runs as the CLEF TAR tools do (the ``tar`` command).
"""
