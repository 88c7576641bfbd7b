"""How the package runs, not what it computes: the process pool that spreads work over forked
workers (:mod:`.pool`) and the one progress bar (:mod:`.progress`). Both use the standard library
only (tqdm is imported when a bar is shown), so every floor of the package may ask them; they
import nothing of it.
"""
