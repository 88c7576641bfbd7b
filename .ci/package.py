"""CI's checks of what users install: the built wheel and sdist, and the installed wheel at work.

    python .ci/package.py dists DIST_DIR BUILD_LOG       # what the wheel and the sdist hold
    python .ci/package.py smoke REF_DIR --extras none    # the wheel alone, from a folder outside
    python .ci/package.py smoke REF_DIR --extras meta    #   the checkout (the meta extra added)

``smoke`` runs with the interpreter of a fresh virtual environment the wheel is installed in,
from a scratch folder: it runs the README's demo and one call of every command of
``ir_measures_pres`` on the bundled sample (trec_eval's test collection) and compares what they
print with trec_eval's own outputs for that collection (REF_DIR: tests/data/trec_eval_test of the
checkout, read as data only). With ``--extras none`` the commands that need the ``meta`` extra
must fail cleanly: exit status 1 (2 for an option's usage error), one line on standard error that
names the extra, no traceback. With ``--extras meta`` they must work.

Standard library only, Python 3.10+: it runs on every supported Python before anything but the
wheel is installed. Exits 1 with one line per failed check.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Sequence

FAILURES: List[str] = []
ROOT = Path(__file__).resolve().parent.parent


def check(ok: bool, what: str) -> None:
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        FAILURES.append(what)


def source_version() -> str:
    """``__version__`` as ir_measures_pres/__init__.py writes it (the one place it is written)."""
    text = (ROOT / "ir_measures_pres" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.M)
    if found is None:
        raise SystemExit("package.py: no __version__ line in ir_measures_pres/__init__.py")
    return found.group(1)


# --------------------------------------------------------------------------------------------
# dists: the files of the wheel and the sdist, and the build log
# --------------------------------------------------------------------------------------------


def dists(dist_dir: Path, build_log: Path) -> None:
    version = source_version()
    wheels = sorted(dist_dir.glob("*.whl"))
    sdists = sorted(dist_dir.glob("*.tar.gz"))
    check(len(wheels) == 1 and len(sdists) == 1, f"one wheel and one sdist in {dist_dir}")
    if not (wheels and sdists):
        return
    wheel, sdist = wheels[0], sdists[0]
    check(wheel.name == f"ir_measures_pres-{version}-py3-none-any.whl", f"{wheel.name}: version {version}")
    info = f"ir_measures_pres-{version}.dist-info"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"{info}/METADATA").decode("utf-8") if f"{info}/METADATA" in names else ""
    for name in (
        f"{info}/licenses/LICENSE",
        f"{info}/licenses/ir_measures_pres/data/sample/trec_eval-NIST.md",
        "ir_measures_pres/py.typed",
        "ir_measures_pres/data/sample/qrels.test",
        "ir_measures_pres/data/sample/results.test",
        "ir_measures_pres/data/sample/trec_eval-NIST.md",
        "ir_measures_pres_pyterrier.py",
    ):
        check(name in names, f"wheel holds {name}")
    check(not any(n.startswith("tests/") for n in names), "wheel holds no tests/ (a top-level package)")
    headers = dict(line.split(": ", 1) for line in metadata.split("\n\n", 1)[0].splitlines() if ": " in line)
    check(headers.get("Version") == version, f"wheel METADATA Version {headers.get('Version')}")
    check(headers.get("License-Expression") == "MIT", "wheel METADATA License-Expression: MIT")
    check("License-File: LICENSE" in metadata, "wheel METADATA License-File: LICENSE")
    check("Classifier: Typing :: Typed" in metadata, "wheel METADATA classifier Typing :: Typed")
    with tarfile.open(sdist) as tf:
        members = {m.name.split("/", 1)[1] for m in tf.getmembers() if "/" in m.name}
    for name in (
        "LICENSE",
        "CITATION.cff",
        "PKG-INFO",
        "README.md",
        "CHANGELOG.md",
        "pyproject.toml",
        "tests/conftest.py",
        "tests/data/trec_eval_test/out.test",
        "docs/citing.md",
        "ir_measures_pres/data/sample/trec_eval-NIST.md",
    ):
        check(name in members, f"sdist holds {name}")
    # our configuration's warnings: setuptools' deprecations, MANIFEST.in patterns matching nothing
    noisy = [
        line.strip()
        for line in build_log.read_text(encoding="utf-8", errors="replace").splitlines()
        if re.search(r"deprecat|no files found matching|no previously-included", line, re.I)
    ]
    check(
        not noisy,
        "build log free of deprecation and MANIFEST warnings" + "".join(f"\n      {n}" for n in noisy),
    )


# --------------------------------------------------------------------------------------------
# smoke: the installed wheel, run from outside the checkout
# --------------------------------------------------------------------------------------------

BIN = Path(sys.executable).parent
COMMAND = str(BIN / "ir_measures_pres")


def run(args: Sequence[str], what: str) -> "subprocess.CompletedProcess[str]":
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # only the installed wheel
    return subprocess.run(list(args), capture_output=True, text=True, env=env, timeout=900)


def succeeds(args: Sequence[str], what: str) -> str:
    """Run a command that must work; its standard output ('' when it failed, after saying so)."""
    done = run(args, what)
    ok = done.returncode == 0 and "Traceback" not in done.stderr
    check(ok, f"{what}: exit 0" + ("" if ok else f", got {done.returncode}: {done.stderr.strip()[-500:]}"))
    return done.stdout if ok else ""


def needs_extra(args: Sequence[str], what: str, status: int = 1) -> None:
    """A command that needs the meta extra, run without it: one line naming it, no traceback."""
    done = run(args, what)
    lines = done.stderr.strip().splitlines()
    ok = (
        done.returncode == status
        and len(lines) == 1
        and "ir_measures_pres[meta]" in lines[0]
        and "Traceback" not in done.stderr
    )
    check(
        ok,
        f"{what} without the meta extra: exit {status}, one line naming the extra"
        + ("" if ok else f"; got {done.returncode}: {done.stderr.strip()[-500:]!r}"),
    )


def table(path: Path) -> Dict[str, Dict[str, str]]:
    """trec_eval's lines ``measure<blanks><TAB>topic<TAB>value`` as {measure: {topic: value}}."""
    out: Dict[str, Dict[str, str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        measure, topic, value = (cell.strip() for cell in line.split("\t"))
        out.setdefault(measure, {})[topic] = value
    return out


def lines_with(text: str, pattern: str) -> List[List[str]]:
    return [line.split() for line in text.splitlines() if re.search(pattern, line)]


def smoke(ref: Path, extras: str) -> None:
    import importlib.metadata
    import importlib.util

    import ir_measures_pres
    from ir_measures_pres.demo import sample_paths

    here = Path.cwd().resolve()
    check(ROOT not in here.parents and here != ROOT, f"running outside the checkout ({here})")
    where = Path(ir_measures_pres.__file__).resolve()
    check(Path(sys.prefix).resolve() in where.parents, f"ir_measures_pres imported from the venv ({where})")
    version = importlib.metadata.version("ir_measures_pres")
    check(
        ir_measures_pres.__version__ == version == source_version(),
        f"__version__ {version}: metadata, source",
    )
    qrels, results = sample_paths()
    check(Path(qrels).is_file() and Path(results).is_file(), "the bundled sample is installed")
    te10, te81 = table(ref / "out.test.aq"), table(ref / "v8.1" / "out.test.aq")
    topics = ("301", "302", "303", "all")

    def ref_row(tab: Dict[str, Dict[str, str]], measure: str) -> List[str]:
        return [tab[measure][t] for t in topics]

    if extras == "none":
        out = succeeds([COMMAND, "--version"], "ir_measures_pres --version")
        check(out.split() == ["ir_measures_pres", version], f"--version prints {version}")
        # the README's demo: our measures beside trec_eval's (10.0; Bpref10: 8.1) on the sample
        out = succeeds(
            [str(BIN / "python"), "-m", "ir_measures_pres.demo"], "python -m ir_measures_pres.demo"
        )
        for label, tab, measure in (
            ("AP", te10, "map"),
            ("nDCG@10", te10, "ndcg_cut_10"),
            ("R@1000", te10, "recall_1000"),
            ("Bpref10", te81, "bpref_top10pRnonrel"),
            ("Bpref10(variant='old')", te81, "old_bpref_top10pRnonrel"),
        ):
            rows = [r[1:] for r in lines_with(out, "^" + re.escape(label) + " ")]
            check(rows == [ref_row(tab, measure)], f"demo row {label} = trec_eval's {measure}: {rows}")
        # trec_eval: its quick test's outputs, byte for byte
        out = succeeds([COMMAND, "trec_eval", qrels, results], "trec_eval")
        check(out == (ref / "out.test").read_text(encoding="utf-8"), "trec_eval = out.test, byte for byte")
        out = succeeds(
            [COMMAND, "trec_eval", "-q", "-m", "all_trec", qrels, results], "trec_eval -q -m all_trec"
        )
        check(
            out == (ref / "out.test.aq").read_text(encoding="utf-8"), "trec_eval -q -m all_trec = out.test.aq"
        )
        # the main command, trec_eval's names and ours, trec_eval's lines
        out = succeeds(
            [
                COMMAND,
                qrels,
                results,
                "map",
                "ndcg_cut.10",
                "PRES@1000",
                "QMeasure",
                "Bpref10",
                "-q",
                "--format",
                "trec",
            ],
            "ir_measures_pres QRELS RUN ... --format trec",
        )
        got = {(m, t): v for m, t, v in lines_with(out, r"^\S+ *\t\S+\t\S+$")}
        for measure in ("map", "ndcg_cut_10"):
            check(
                all(got.get((measure, t)) == te10[measure][t] for t in topics),
                f"main command {measure} = trec_eval's",
            )
        check(
            got.get(("bpref_top10pRnonrel", "all")) == te81["bpref_top10pRnonrel"]["all"],
            "main command Bpref10 = 8.1's",
        )
        check(
            ("PRES_1000", "all") in got and ("Q-measure", "all") in got,
            "main command prints PRES_1000 and Q-measure",
        )
        # ntcir: NTCIREVAL's lines; AP and MSnDCG@10 are trec_eval's map and ndcg_cut_10
        out = succeeds([COMMAND, "ntcir", qrels, results, "-cutoffs", "10"], "ntcir")
        for label, measure in (("AP=", "map"), ("MSnDCG@0010=", "ndcg_cut_10")):
            got_rows = [r[2] for r in lines_with(out, r"^\d+ " + re.escape(label))]
            check(got_rows == ref_row(te10, measure)[:3], f"ntcir {label} = trec_eval's {measure} per topic")
        # tar (2017 tool): the qrels' relevant counts are trec_eval's num_rel
        out = succeeds([COMMAND, "tar", "--edition", "2017", qrels, results], "tar --edition 2017")
        rows = {r[0]: r[2] for r in lines_with(out, r"\tnum_rels\t")}
        check(
            [rows.get(t) for t in ("301", "302", "303", "ALL")] == ref_row(te10, "num_rel"),
            "tar num_rels = num_rel",
        )
        # sampled: every document judged, one stratum: the estimators are exact (infAP = AP)
        work = Path.cwd()
        strata = work / "qrels.sampled"
        prels = work / "prels"
        with open(qrels, encoding="utf-8") as src, open(strata, "w") as s5, open(prels, "w") as p5:
            for line in src:
                topic, it, doc, rel = line.split()
                s5.write(f"{topic} {it} {doc} 1 {rel}\n")
                p5.write(f"{topic} {doc} {rel} 1 1\n")
        out = succeeds([COMMAND, "sampled", str(strata), results], "sampled (sample_eval)")
        got = {r[0]: r[-1] for r in lines_with(out, r"\tall\t")}
        check(got.get("infAP") == te10["map"]["all"], f"sampled infAP = map: {got.get('infAP')}")
        check(got.get("inum_rel") == te10["num_rel"]["all"] + ".0000", "sampled inum_rel = num_rel")
        out = succeeds([COMMAND, "sampled", "--tool", "statap", str(prels), results], "sampled --tool statap")
        stat = re.search(r"statMAP_on_valid_topics=(\S+)", out)
        check(
            stat is not None and f"{float(stat.group(1)):.4f}" == te10["map"]["all"], "statap statMAP = map"
        )
        # diversity: one intent of probability 1 per topic; the script ranks in file order, so the
        # run is written in trec_eval's order first; its AP lines are then trec_eval's map
        ranked = work / "results.ranked"
        lines = [line.split() for line in Path(results).read_text(encoding="utf-8").splitlines()]
        lines.sort(key=lambda c: c[2], reverse=True)  # ties: the higher docno first, as trec_eval
        lines.sort(key=lambda c: (c[0], -float(c[4])))  # stable: by topic, then score down
        ranked.write_text("".join(" ".join(c) + "\n" for c in lines), encoding="utf-8")
        (work / "sample.Iprob").write_text("".join(f"{t} 1 1.0\n" for t in ("301", "302", "303")))
        with open(qrels, encoding="utf-8") as src, open(work / "sample.Dqrels", "w") as dq:
            for line in src:
                topic, _, doc, rel = line.split()
                dq.write(f"{topic} 1 {doc} L{rel}\n")
        out = succeeds(
            [
                COMMAND,
                "diversity",
                "D-NTCIR-eval",
                "sample.Iprob",
                "sample.Dqrels",
                str(ranked),
                "--cutoff",
                "1000",
            ],
            "diversity D-NTCIR-eval",
        )
        got_rows = [r[2] for r in lines_with(out, r"^\d+ AP=")]
        check(got_rows == ref_row(te10, "map")[:3], f"diversity AP= = trec_eval's map per topic: {got_rows}")
        check(bool(lines_with(out, r"^\d+ D#-nDCG@1000=")), "diversity prints D#-nDCG@1000")
        # the commands that need the meta extra say so
        runs = meta_runs(results)
        for name, args, status in extra_commands(qrels, results, runs):
            if name.endswith("bootstrap") and importlib.util.find_spec("scipy") is not None:
                succeeds([COMMAND, *args], f"{name} (scipy came with a core dependency)")
            else:
                needs_extra([COMMAND, *args], name, status)
    else:
        runs = meta_runs(results)
        for name, args, _ in extra_commands(qrels, results, runs):
            out = succeeds([COMMAND, *args], f"{name} (meta extra)")
            check(bool(out.strip()), f"{name} prints its table")
            if name == "compare":
                row = lines_with(out, r"\bsample\b")
                mean_ap = row[0][2].rstrip("*") if row and len(row[0]) > 2 else None
                check(
                    mean_ap == te10["map"]["all"],
                    f"compare: the sample's mean AP is trec_eval's map: {row[:1]}",
                )
            if name == "curves":
                # pytrec_eval's interpolation (trec_eval 9) is trec_eval 10.0's except at 0.1 and 0.6
                # (docs/cli.md: 10.0 changed how a recall level becomes a rank)
                header = lines_with(out, r"^recall\s")
                column = header[0].index("sample") if header and "sample" in header[0] else None
                check(column is not None, "curves: a column for the run 'sample'")
                for cells in lines_with(out, r"^\d\.\d\s") if column is not None else []:
                    level, value = cells[0], cells[column]
                    if level not in ("0.1", "0.6"):
                        key = f"iprec_at_recall_{float(level):.2f}"
                        check(value == te10[key]["all"], f"curves pr11 at {level} = trec_eval's {key}")


def meta_runs(results: str) -> str:
    """A folder of three runs for the commands that compare runs: the sample, the sample ranked
    backwards, and the sample with coarse scores (rank mod 7: ties broken by the docno)."""
    folder = Path.cwd() / "runs"
    folder.mkdir(exist_ok=True)
    lines = [line.split() for line in Path(results).read_text(encoding="utf-8").splitlines()]
    variants = {
        "sample": lambda c: c,
        "reversed": lambda c: [*c[:4], repr(-float(c[4])), "reversed"],
        "coarse": lambda c: [*c[:4], str(int(c[3]) % 7), "coarse"],
    }
    for name, change in variants.items():
        (folder / name).write_text("".join("\t".join(change(c)) + "\n" for c in lines), encoding="utf-8")
    return str(folder)


def extra_commands(qrels: str, results: str, runs: str) -> List[tuple]:
    """(name, arguments, exit status without the extra) of every call that needs the meta extra."""
    meta = ["-m", "AP", "PRES@1000", "--plot-format", "none", "--quiet"]
    return [
        ("compare", ["compare", qrels, runs, "-m", "AP", "PRES@1000"], 1),
        ("curves", ["curves", qrels, runs, "--kind", "pr11"], 1),
        ("robustness", ["robustness", qrels, runs, *meta, "--output-dir", "out-robustness"], 1),
        ("agreement", ["agreement", qrels, runs, *meta, "--output-dir", "out-agreement"], 1),
        ("discriminative-power", ["discriminative-power", qrels, runs, *meta, "--output-dir", "out-dp"], 1),
        ("sensitivity", ["sensitivity", qrels, runs, *meta, "--output-dir", "out-sensitivity"], 1),
        (
            "main command --ci-method bootstrap",
            [qrels, results, "AP", "--ci", "0.95", "--ci-method", "bootstrap"],
            2,
        ),
    ]


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    d = sub.add_parser("dists")
    d.add_argument("dist_dir", type=Path)
    d.add_argument("build_log", type=Path)
    s = sub.add_parser("smoke")
    s.add_argument("ref_dir", type=Path)
    s.add_argument("--extras", choices=("none", "meta"), required=True)
    args = parser.parse_args(argv)
    if args.what == "dists":
        dists(args.dist_dir, args.build_log)
    else:
        print(f"smoke on Python {sys.version.split()[0]} ({sys.executable}), extras: {args.extras}")
        smoke(args.ref_dir.resolve(), args.extras)
    if FAILURES:
        print(f"package.py {args.what}: {len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
