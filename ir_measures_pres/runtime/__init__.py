"""How the package runs, not what it computes: the process pool that spreads work over forked
workers (:mod:`.pool`), the stop policy of the command, SIGINT and SIGTERM from its first instant
to its exit (:mod:`.stops`), the one way the package's exceptions pickle to cross from a worker
(:mod:`.pickling`) and the one progress bar (:mod:`.progress`). All use the standard library only
(tqdm is imported when a bar is shown), so every floor of the package may ask them; they import
nothing of it.
"""
