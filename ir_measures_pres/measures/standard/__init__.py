"""Native numpy kernels of ir_measures' standard measures (AP, P, R, nDCG, RR, Rprec, Success, Bpref),
for repeated scoring only (the meta-evaluation's sweeps, the bounds); pytrec_eval stays the backend
that evaluates them, and is the reference these kernels are tested against (:mod:`.kernels`)."""
