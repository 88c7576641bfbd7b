"""The textbook family: the measures of *Modern Information Retrieval*'s retrieval-evaluation chapter
(Baeza-Yates and Ribeiro-Neto) that no other package computes, with Järvelin and Kekäläinen's CG and
DCG (:mod:`.measures`); no reference tool, the book's worked examples are the check."""
