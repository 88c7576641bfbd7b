"""Writing result tables (CSV / TSV / JSON) and plots (PNG / SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, ClassVar, Dict, List, Optional, Tuple

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

    def save(
        self, outdir: str, fmt: str = "csv", plot_format: Optional[str] = "png", prefix: Optional[str] = None
    ) -> List[Path]:
        """Write the tables and the plot to ``outdir``; returns the paths written."""
        return save_tables(
            outdir,
            prefix or self.PREFIX,
            {name: getattr(self, name) for name in self.TABLES},
            fmt,
            (lambda p: self.plot(p)) if plot_format else None,
            plot_format,
        )
