"""The sampled-judgement family: NIST's ``sample_eval.pl`` (xinfAP, infNDCG, inferred precision;
:mod:`.estimators`, a whole run as the tool sums it in :mod:`.sample_eval`) and
``statAP_MQ_eval_v3.pl`` (statAP and its companions, :mod:`.statap`) of the TREC Million Query track."""
