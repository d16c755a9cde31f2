"""Write each notebook's figures, as stored in its outputs, to docs/ (for the README).

Run after executing the notebooks in place (``make notebooks-run`` does both):

    python scripts/export_figures.py            # docs/<notebook>_<n>.png for every figure
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export(notebook: Path, out_dir: Path) -> list[Path]:
    """The PNG outputs of ``notebook``, in order, written as ``<stem>_<n>.png``."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    written = []
    for cell in cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {}).get("image/png")
            if data is None:
                continue
            path = out_dir / f"{notebook.stem}_{len(written) + 1}.png"
            path.write_bytes(base64.b64decode("".join(data) if isinstance(data, list) else data))
            written.append(path)
    return written


def main(argv: list[str]) -> int:
    notebooks = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for notebook in notebooks:
        paths = export(notebook, ROOT / "docs")
        if not any(cell.get("outputs") for cell in json.loads(notebook.read_text())["cells"]):
            print(f"{notebook.name}: no outputs stored; execute it first", file=sys.stderr)
        for path in paths:
            print(f"{notebook.name} -> {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
