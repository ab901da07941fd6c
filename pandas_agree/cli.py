"""Command line: ``pandas-agree demo`` (also ``python -m pandas_agree demo``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import datasets
from .report import report

__all__ = ["main"]

DEMO_DISTANCES = ("nominal", "jaccard", "masi")


def demo() -> str:
    """Alpha with nominal, Jaccard and MASI on the set-valued figures of Passonneau (2006)."""
    table = report(datasets.masi_figures(), list(DEMO_DISTANCES), by="figure").drop(
        columns="reason"
    )
    lines = [
        "pandas_agree demo: Krippendorff's alpha on set-valued annotations",
        "(Passonneau 2006, Figures 2-4: coders give each unit a set; nominal counts only",
        " identical sets as agreement, Jaccard and MASI give credit for overlap)",
        "",
        table.to_string(float_format=lambda x: f"{x:.3f}"),
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pandas-agree`` command."""
    parser = argparse.ArgumentParser(
        prog="pandas-agree", description="Inter-annotator agreement on long annotation data."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="run alpha on the bundled published examples")
    args = parser.parse_args(argv)
    if args.command == "demo":
        print(demo())
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
