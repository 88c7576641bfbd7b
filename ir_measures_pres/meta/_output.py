"""Writing result tables (CSV / TSV / JSON), the paper table (Markdown / LaTeX) and plots (PNG / SVG)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar, Dict, List, Optional, Sequence, Tuple

import numpy as np

FORMATS = ("csv", "tsv", "json")
PLOT_FORMATS = ("png", "svg")


def write_table(df: Any, path: Path, fmt: str) -> Path:
    """One table: CSV, TSV (no index), or JSON (a list of records)."""
    if fmt == "csv":
        df.to_csv(path, index=False)
    elif fmt == "tsv":
        df.to_csv(path, index=False, sep="\t")
    elif fmt == "json":
        df.to_json(path, orient="records", indent=1, double_precision=15)
    else:
        raise ValueError(f"unknown table format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return path


@dataclass
class PaperTable:
    """A table as a paper prints it: ``cells`` (a DataFrame of strings, its index the row
    labels, named by ``corner``), ``bold`` (same shape: the best value of a column or a row, where
    "best" has a meaning) and a ``caption``."""

    cells: Any
    bold: np.ndarray
    caption: str
    corner: str = ""

    def markdown(self) -> str:
        """A GitHub-flavoured Markdown table, best values in ``**bold**``."""
        cols = [str(c) for c in self.cells.columns]
        lines = [
            "| " + " | ".join([self.corner] + cols) + " |",
            "|" + "|".join([":---"] + ["---:"] * len(cols)) + "|",
        ]
        for i, (label, row) in enumerate(self.cells.iterrows()):
            cells = [f"**{v}**" if self.bold[i, j] else str(v) for j, v in enumerate(row)]
            lines.append("| " + " | ".join([str(label)] + cells) + " |")
        return f"{self.caption}\n\n" + "\n".join(lines) + "\n"

    def latex(self) -> str:
        """A booktabs ``table`` (needs ``\\usepackage{booktabs}``), best values in ``\\textbf``."""
        cols = [_tex(str(c)) for c in self.cells.columns]
        out = [
            "\\begin{table}[t]",
            "\\centering",
            f"\\caption{{{_tex(self.caption)}}}",
            "\\begin{tabular}{l" + "r" * len(cols) + "}",
            "\\toprule",
            " & ".join([_tex(self.corner)] + cols) + " \\\\",
            "\\midrule",
        ]
        for i, (label, row) in enumerate(self.cells.iterrows()):
            cells = [
                f"\\textbf{{{_tex(str(v))}}}" if self.bold[i, j] else _tex(str(v)) for j, v in enumerate(row)
            ]
            out.append(" & ".join([_tex(str(label))] + cells) + " \\\\")
        out += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
        return "\n".join(out) + "\n"


_TEX = {
    "\\": "\\textbackslash{}",
    "&": "\\&",
    "%": "\\%",
    "_": "\\_",
    "#": "\\#",
    "$": "\\$",
    "{": "\\{",
    "}": "\\}",
}


def _tex(text: str) -> str:
    out = "".join(_TEX.get(ch, ch) for ch in text)
    return out.replace("±", "$\\pm$").replace("τ", "$\\tau$").replace("α", "$\\alpha$")


def best(values: np.ndarray, higher: Sequence[bool], axis: int) -> np.ndarray:
    """Mask of the best value along ``axis`` (0: per column, 1: per row) of the numeric
    ``values`` (ties all bold, NaN never); ``higher[k]`` says whether larger is better in
    column (axis 0) or row (axis 1) k. Compared after rounding to the printed values is the
    caller's job (pass the rounded numbers)."""
    v = np.asarray(values, dtype=np.float64)
    mask = np.zeros(v.shape, dtype=bool)
    if v.size == 0:
        return mask
    for k, hi in enumerate(higher):
        line = v[:, k] if axis == 0 else v[k, :]
        if np.all(np.isnan(line)) or np.sum(~np.isnan(line)) < 2:
            continue
        target = np.nanmax(line) if hi else np.nanmin(line)
        hit = line == target
        if axis == 0:
            mask[:, k] = hit
        else:
            mask[k, :] = hit
    return mask


def save_tables(
    outdir: str,
    prefix: str,
    tables: Dict[str, Any],
    fmt: str,
    plot: Optional[Callable[[str], Any]],
    plot_format: Optional[str],
) -> List[Path]:
    """``<outdir>/<prefix>_<name>.<fmt>`` for each table, and ``<outdir>/<prefix>.<plot_format>``."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    written = [write_table(df, out / f"{prefix}_{name}.{fmt}", fmt) for name, df in tables.items()]
    if plot is not None and plot_format:
        if plot_format not in PLOT_FORMATS:
            raise ValueError(f"unknown plot format {plot_format!r}; choose one of {', '.join(PLOT_FORMATS)}")
        path = out / f"{prefix}.{plot_format}"
        plot(str(path))
        written.append(path)
    return written


class SavedResult:
    """Mixin of the experiments' result dataclasses: ``save()`` writes the tables named in
    ``TABLES`` as ``<prefix>_<table>.<fmt>`` and the result's ``plot()`` as ``<prefix>.<format>``."""

    TABLES: ClassVar[Tuple[str, ...]] = ()
    PREFIX: ClassVar[str] = "result"

    def plot(self, path: Optional[str] = None, **kwargs: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def paper_table(self) -> Optional[PaperTable]:
        """The table a paper prints (Markdown / LaTeX); None when the experiment has none."""
        return None

    def save(
        self, outdir: str, fmt: str = "csv", plot_format: Optional[str] = "png", prefix: Optional[str] = None
    ) -> List[Path]:
        """Write the tables, the paper table (``<prefix>.md`` and ``<prefix>.tex``) and the plot
        to ``outdir``; returns the paths written."""
        name = prefix or self.PREFIX
        written = save_tables(
            outdir,
            name,
            {name: getattr(self, name) for name in self.TABLES},
            fmt,
            (lambda p: self.plot(p)) if plot_format else None,
            plot_format,
        )
        table = self.paper_table()
        if table is not None:
            out = Path(outdir)
            for suffix, text in ((".md", table.markdown()), (".tex", table.latex())):
                path = out / f"{name}{suffix}"
                path.write_text(text, encoding="utf-8")
                written.append(path)
        return written
