"""The sampled-judgement family: NIST's ``sample_eval.pl`` (xinfAP, infNDCG, inferred precision:
the estimators in :mod:`.estimators`, the registered measures in :mod:`.measures`, a whole run as
the tool sums it in :mod:`.sample_eval`) and ``statAP_MQ_eval_v3.pl`` (statAP and its companions,
:mod:`.statap`) of the TREC Million Query track."""

from .measures import infIPrec, infNDCG, infP, inum_rel, inum_rel_ret, xinfAP

__all__ = ["infIPrec", "infNDCG", "infP", "inum_rel", "inum_rel_ret", "xinfAP"]
