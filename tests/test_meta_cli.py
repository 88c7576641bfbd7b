"""Command line of the meta-evaluation (ir_measures_pres.cli.meta): the files it writes hold the
same numbers as the Python API on the same inputs, and errors give exit status 1 or 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("scipy")

from ir_measures_pres.cli.meta import main  # noqa: E402
from ir_measures_pres.meta import agreement, discriminative_power, robustness  # noqa: E402


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    """A qrels file and a directory of five TREC runs over 16 topics."""
    base = tmp_path_factory.mktemp("meta_cli")
    rng = np.random.default_rng(21)
    docs = [f"D{i:03d}" for i in range(60)]
    rel = {}
    with open(base / "qrels.txt", "w") as f:
        for t in range(16):
            for d in docs[:30]:
                label = int(rng.random() < 0.2)
                rel[(t, d)] = label
                f.write(f"T{t} 0 {d} {label}\n")
    (base / "runs").mkdir()
    for r in range(5):
        with open(base / "runs" / f"sys{r}.txt", "w") as f:
            for t in range(16):
                scores = {d: rng.random() + 0.12 * r * rel.get((t, d), 0) for d in docs}
                for k, (d, s) in enumerate(sorted(scores.items(), key=lambda x: -x[1])):
                    f.write(f"T{t} Q0 {d} {k + 1} {s:.6f} sys{r}\n")
    (base / "runs" / "sys4.txt").rename(base / "runs" / "sys4-copy.txt")
    return base


def test_robustness_command_writes_the_api_numbers(collection, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "robustness",
            str(collection / "qrels.txt"),
            str(collection / "runs"),
            "-m",
            "PRES@20 AP@20",
            "R@10",
            "--fractions",
            "0.3,0.6",
            "--samples",
            "2",
            "--seed",
            "4",
            "-q",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "lowest Kendall's tau per fraction" in text and "PRES@20" in text
    got = pd.read_csv(out / "robustness_samples.csv")
    api = robustness(
        collection / "qrels.txt",
        collection / "runs",
        "PRES@20 AP@20 R@10",
        fractions=[0.3, 0.6],
        samples=2,
        seed=4,
        progress=False,
    )
    np.testing.assert_allclose(got["tau"], api.samples["tau"])
    assert got["measure"].tolist() == api.samples["measure"].tolist()
    assert (out / "robustness.png").read_bytes()[:4] == b"\x89PNG"


def test_agreement_command_with_exclude_and_json(collection, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "agreement",
            str(collection / "qrels.txt"),
            str(collection / "runs"),
            "-m",
            "AP@20 R@20 PRES@20",
            "--exclude",
            "*-copy.txt",
            "--format",
            "json",
            "--plot-format",
            "none",
            "-q",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    assert "two measures agree, the third disagrees" in capsys.readouterr().out
    pairs = pd.read_json(out / "agreement_pairs.json")
    assert len(pairs) == 6 * 3  # 4 runs after --exclude
    assert "sys4-copy" not in set(pairs["run_a"]) | set(pairs["run_b"])
    assert not (out / "agreement.png").exists()
    runs = sorted((collection / "runs").glob("sys[0-3].txt"))
    api = agreement(collection / "qrels.txt", runs, "AP@20 R@20 PRES@20", progress=False)
    np.testing.assert_allclose(pairs["p_value"], api.pairs["p_value"])


def test_discriminative_power_command(collection, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "discriminative-power",
            str(collection / "qrels.txt"),
            str(collection / "runs"),
            "-m",
            "AP",
            "QMeasure",
            "-B",
            "200",
            "--splits",
            "10",
            "--format",
            "tsv",
            "-q",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "discriminative power" in text and "split-half stability" in text
    got = pd.read_csv(out / "discriminative_power_pairs.tsv", sep="\t")
    api = discriminative_power(
        collection / "qrels.txt", collection / "runs", "AP QMeasure", B=200, seed=0, progress=False
    )
    np.testing.assert_allclose(got["asl"], api.pairs["asl"])
    for name in (
        "stability_summary.tsv",
        "stability_buckets.tsv",
        "stability.png",
        "discriminative_power.png",
    ):
        assert (out / name).exists()


def test_errors(collection, capsys):
    qrels, runs = str(collection / "qrels.txt"), str(collection / "runs")
    assert main(["robustness", qrels, runs, "-m", "NoSuchMeasure@3", "-q"]) == 2  # a usage error
    assert capsys.readouterr().err == "ir_measures_pres: error: unknown measure 'NoSuchMeasure@3'\n"
    assert main(["agreement", qrels, str(collection / "missing"), "-m", "AP", "-q"]) == 1
    assert "missing: No such file or directory" in capsys.readouterr().err
    assert main(["robustness", qrels, runs, "-m", "AP", "--fractions", "0", "-q"]) == 2  # checked first
    assert main(["robustness", qrels, runs]) == 2  # -m is required
    assert main(["no-such-command"]) == 2
    assert main(["robustness", "--help"]) == 0


def test_python_dash_m(collection, tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ir_measures_pres.meta",
            "robustness",
            str(collection / "qrels.txt"),
            str(collection / "runs"),
            "-m",
            "R@10",
            "--fractions",
            "0.5",
            "--samples",
            "1",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "R@10" in proc.stdout
    assert proc.stderr == ""  # stderr is a pipe here, not a terminal: no progress bar


def _terminal_stderr(argv, tmp_path):
    """Run the command with a pseudo-terminal as stderr (stdout to a file); what it wrote there."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # tqdm needs a width
    with open(tmp_path / "stdout", "wb") as out:
        proc = subprocess.run(argv, stdout=out, stderr=secondary, check=False)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # EIO: the terminal's other side is closed and drained
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    return proc.returncode, b"".join(chunks)


@pytest.mark.parametrize("command", ["robustness", "compare"])
def test_progress_bars_only_on_a_terminal(command, collection, tmp_path):
    """Issue #20, item 4: stderr redirected to a file gets no tqdm frames; a terminal does, and
    -q/--quiet turns them off there."""
    args = [sys.executable, "-m", "ir_measures_pres", command, str(collection / "qrels.txt")]
    args += [str(collection / "runs"), "-m", "R@10"]
    if command == "robustness":
        args += ["--fractions", "0.5", "--samples", "1"]
    log = tmp_path / "stderr.log"
    with open(log, "wb") as err:
        proc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=err, check=False)
    assert proc.returncode == 0
    assert b"\r" not in log.read_bytes() and b"it/s" not in log.read_bytes()
    code, shown = _terminal_stderr(args, tmp_path)
    assert code == 0 and b"\r" in shown
    code, shown = _terminal_stderr(args + ["--quiet"], tmp_path)
    assert code == 0 and b"\r" not in shown


@pytest.mark.parametrize(
    "command",
    [[], ["compare"], ["tar"], ["robustness"], ["agreement"], ["discriminative-power"], ["sensitivity"]],
)
def test_help_shows_percent_signs_as_written(command):
    """argparse %-formats help strings but not descriptions: a '%%' written in a description
    reached the user as '%%' (issue #20, item 13)."""
    proc = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *command, "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert "%%" not in proc.stdout
    if command == ["sensitivity"]:
        assert "swap rate <= 5 % and" in " ".join(proc.stdout.split())


def test_python_functions_show_no_bar_off_a_terminal(collection, capsys):
    """The Python functions default to progress=None: a bar only when stderr is a terminal (it is
    not under pytest), so notebooks' and scripts' logs stay clean (issue #20, item 4)."""
    qrels, runs = str(collection / "qrels.txt"), str(collection / "runs")
    robustness(qrels, runs, "R@10", fractions=[0.5], samples=1)
    agreement(qrels, runs, "R@10 AP")
    discriminative_power(qrels, runs, "R@10", B=20, repeats=1)
    assert capsys.readouterr().err == ""


def test_format_applies_to_standard_output_too(collection, capsys, tmp_path):
    """Issue #20, item 8: --format json (csv, tsv) changed only the files of -o while standard
    output stayed text; now standard output holds the same tables in that format, md/latex the
    paper table, and the files come with --output-dir (-o kept, unlisted)."""
    import json

    qrels, runs = str(collection / "qrels.txt"), str(collection / "runs")
    args = ["agreement", qrels, runs, "-m", "AP", "R@10", "--quiet"]
    assert main([*args]) == 0
    text = capsys.readouterr().out
    assert main([*args, "--format", "json", "--output-dir", str(tmp_path / "j")]) == 0
    captured = capsys.readouterr()
    tables = json.loads(captured.out)  # nothing else on stdout: "wrote ..." goes to stderr
    assert captured.err.startswith("wrote ") and (tmp_path / "j" / "agreement_tau.json").exists()
    tau = tables["Kendall's tau between measures"][0]
    assert (tau["measure_a"], tau["measure_b"]) == ("AP", "R@10") and f"{tau['tau']:.4f}" in text
    saved = json.loads((tmp_path / "j" / "agreement_tau.json").read_text())
    assert saved[0]["tau"] == pytest.approx(tau["tau"], abs=1e-12)
    assert main([*args, "--format", "csv"]) == 0
    csv_out = capsys.readouterr().out
    assert csv_out.startswith("# Kendall's tau between measures\nmeasure_a,measure_b,tau,p_value\nAP,R@10,")
    assert main([*args, "--format", "markdown"]) == 0
    assert capsys.readouterr().out.startswith("Kendall's τ between the system rankings")
    assert main([*args, "--format", "latex", "-o", str(tmp_path / "l")]) == 0  # -o: the old spelling
    assert (
        capsys.readouterr().out.startswith("\\begin{table}") and (tmp_path / "l" / "agreement.tex").exists()
    )


def test_resamples_has_one_name_and_keeps_the_old_ones(collection, capsys):
    """-B/--resamples in discriminative-power and sensitivity (and compare); the old
    --bootstrap-samples / --samples still work, unlisted."""
    qrels, runs = str(collection / "qrels.txt"), str(collection / "runs")
    for command, old in (("discriminative-power", "--bootstrap-samples"), ("sensitivity", "--samples")):
        base = [command, qrels, runs, "-m", "AP", "--repeats", "1", "-q"]
        if command == "discriminative-power":
            base += ["--splits", "0"]
        outputs = []
        for spelling in ("-B", "--resamples", old):
            assert main([*base, spelling, "40"]) == 0
            outputs.append(capsys.readouterr().out)
        assert outputs[0] == outputs[1] == outputs[2] and "B=40" in outputs[0]
        assert main([command, "--help"]) == 0
        shown = capsys.readouterr().out
        assert "--resamples" in shown and old not in shown


def test_robustness_takes_measures_whose_at_value_is_a_fraction(collection, capsys):
    """``RprecMult@0.2`` and ``IPrec@0.5`` (an ``@`` value that is not a whole number), as the
    other meta commands take them: the ``cutoff`` column holds 0.2 and 0.5 (a float column), AP@20's
    20 beside them; alone, whole cut-offs keep an integer column."""
    for measures in ("RprecMult@0.2", "IPrec@0.5", "RprecMult@0.2 AP@20"):
        argv = ["robustness", str(collection / "qrels.txt"), str(collection / "runs"), "-m", measures]
        assert main([*argv, "--samples", "1", "-q"]) == 0, measures
        captured = capsys.readouterr()
        assert captured.err == "" and "lowest Kendall's tau per fraction" in captured.out
    res = robustness(collection / "qrels.txt", collection / "runs", "RprecMult@0.2 AP@20 RR", samples=1)
    cutoffs = res.samples.groupby("measure")["cutoff"].first()
    assert cutoffs["RprecMult@0.2"] == 0.2 and cutoffs["AP@20"] == 20 and pd.isna(cutoffs["RR"])
    whole = robustness(collection / "qrels.txt", collection / "runs", "AP@20 P@5", samples=1)
    assert str(whole.samples["cutoff"].dtype) == "Int64"
