"""Document ids given as bytes (numpy 'S' arrays, what the fast TREC reader produces) rank and
label exactly as the same ids given as str, through the vectorised hash join with the qrels."""

import random

import numpy as np
import pytest

from ir_measures_pres.data import qrels as _qrels
from ir_measures_pres.data.arrays import doc_keys
from ir_measures_pres.data.inputs import Columns, InputError
from ir_measures_pres.data.qrels import ABSENT, Qrels
from ir_measures_pres.data.ranking import rank_run

ALPHABET = ["a", "b", "Z", "0", "1", "-", "é", "文", "😀"]


def _random_case(rnd: random.Random):
    def rid() -> str:
        return "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(1, 20)))

    qrels = {
        f"q{q}": {rid(): rnd.randint(-1, 3) for _ in range(rnd.randint(0, 15))}
        for q in range(rnd.randint(1, 5))
    }
    lines = []
    for q in [*qrels, "not-in-qrels"]:
        docs = list(qrels.get(q, {}))[: rnd.randint(0, 10)] + [rid() for _ in range(rnd.randint(0, 10))]
        for d in dict.fromkeys(docs):
            lines.append((q, d, float(rnd.randint(0, 3))))  # few score values: many ties
    rnd.shuffle(lines)
    return qrels, lines


def _columns(lines, as_bytes: bool) -> Columns:
    qids = np.array([q for q, _, _ in lines], dtype=object)
    if as_bytes:
        docs = np.array([d.encode("utf-8") for _, d, _ in lines] or [b"x"], dtype="S")[: len(lines)]
    else:
        docs = np.array([d for _, d, _ in lines], dtype=object)
    return Columns(qids, docs, np.array([s for _, _, s in lines], dtype=float))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("chunk", [1 << 21, 3])
def test_bytes_and_str_ids_give_the_same_ranking_and_labels(seed, chunk, monkeypatch):
    monkeypatch.setattr(_qrels, "JOIN_CHUNK", chunk)  # the hash join, whole or a few lines at a time
    rnd = random.Random(seed)
    for _ in range(40):
        qrels, lines = _random_case(rnd)
        prepared = Qrels.from_any(qrels)
        as_str = rank_run(_columns(lines, False), prepared)
        as_bytes = rank_run(_columns(lines, True), prepared)
        assert as_bytes.labels.tolist() == as_str.labels.tolist()
        assert as_bytes.offsets.tolist() == as_str.offsets.tolist()
        # qrels read as bytes too: their index is built from the bytes as given
        qrels_lines = [(q, d, v) for q, docs in qrels.items() for d, v in docs.items()]
        rnd.shuffle(qrels_lines)
        from_bytes = Qrels.from_any(_columns(qrels_lines, True))
        from_str = Qrels.from_any(_columns(qrels_lines, False))  # queries without lines are gone
        assert (
            rank_run(_columns(lines, True), from_bytes).labels.tolist()
            == rank_run(_columns(lines, False), from_str).labels.tolist()
        )
        assert [d.decode("utf-8") for d in as_bytes.docs.tolist()] == as_str.docs.tolist()
        # and both follow the rule written out: score desc, then id desc as UTF-8 bytes
        for i, q in enumerate(as_str.qpos.tolist()):
            qid = prepared.query_ids[q]
            mine = sorted(((s, d.encode("utf-8"), d) for qq, d, s in lines if qq == qid), reverse=True)
            a, b = as_str.offsets[i], as_str.offsets[i + 1]
            assert as_str.docs[a:b].tolist() == [d for _, _, d in mine]
            assert as_str.labels[a:b].tolist() == [qrels[qid].get(d, ABSENT) for _, _, d in mine]


def test_a_dict_run_gives_the_same_as_columns():
    rnd = random.Random(11)
    for _ in range(40):
        qrels, lines = _random_case(rnd)
        prepared = Qrels.from_any(qrels)
        run = {}
        for q, d, s in lines:
            run.setdefault(q, {})[d] = s
        from_dict = rank_run(run, prepared)
        from_columns = rank_run(_columns(lines, True), prepared)
        assert from_dict.labels.tolist() == from_columns.labels.tolist()
        assert from_dict.docs.tolist() == [d.decode("utf-8") for d in from_columns.docs.tolist()]


def test_keys_do_not_depend_on_the_array_width():
    short = np.array([b"doc-1", b"d"], dtype="S5")
    wide = np.array([b"doc-1", b"d"], dtype="S24")
    query = np.array([3, 3])
    assert doc_keys(short, query).tolist() == doc_keys(wide, query).tolist()
    assert doc_keys(short, np.array([3, 4]))[1] != doc_keys(short, query)[1]


def test_a_nul_inside_a_qrels_id_is_an_input_error():
    # trec_eval and pytrec_eval read ids as C strings (a NUL ends them), numpy pads bytes ids with
    # NULs: an id holding one cannot be evaluated without guessing
    with pytest.raises(InputError, match="NUL"):
        Qrels.from_any({"q": {"a\x00b": 1, "c": 0}})
    with pytest.raises(InputError, match="NUL"):
        Qrels.from_any(
            Columns(np.array(["q", "q"], dtype=object), np.array([b"a\x00b", b"c"]), np.array([1, 0]))
        )


def test_qrels_read_as_bytes_label_str_runs_too():
    """The reader's bytes qrels make their str look-up tables only when a run with str ids
    comes; the labels are those of the same qrels read as str (ids not valid UTF-8 included)."""
    import io

    from ir_measures_pres.data.readers import read_qrels

    data = "q1 0 a 1\nq1 0 é 2\nq2 0 b 0\nq2 0 c -1\nq1 0 文 0\n".encode() + b"q2 0 x\xff 3\n"
    as_bytes = Qrels.from_any(read_qrels(io.BytesIO(data), doc_ids="bytes"))
    as_str = Qrels.from_any(read_qrels(io.BytesIO(data)))
    assert as_bytes._lookup is None  # not made yet
    run = {"q1": {"文": 3.0, "é": 2.0, "zz": 1.0}, "q2": {"x\udcff": 2.0, "c": 1.0, "b": 0.5}}
    assert (
        rank_run(run, as_bytes).labels.tolist()
        == rank_run(run, as_str).labels.tolist()
        == [0, 2, ABSENT, 3, -1, 0]
    )
    assert as_bytes.lookup == as_str.lookup
