"""Execute the notebooks in place, so that an unchanged notebook is written back byte for byte.

``make notebooks-run`` runs this, then ``scripts/export_figures.py``:

    python scripts/run_notebooks.py                 # every notebooks/*.ipynb
    python scripts/run_notebooks.py notebooks/solve.ipynb

What ``jupyter nbconvert --execute --inplace`` stored and this does not:

* each cell's execution timestamps (``metadata.execution``): new on every run;
* the widgets' state (``metadata.widgets``) and their views in the outputs: a random model id
  each run, and a stored notebook cannot run a widget anyway (the text form of each output stays);
* a cell's printed text cut into pieces where the kernel happened to flush it: consecutive
  pieces of the same stream are joined, as one ``print`` after another reads.

The kernel is started with CurveZMQ keys (``transport_encryption="auto"``): without them
ipykernel warns, once a notebook, that it runs over TCP without encryption.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def normalise(notebook: Any) -> Any:
    """Drop what changes from run to run though the notebook did not (see the module's docstring)."""
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        outputs: list[Any] = []
        for output in cell.outputs:
            previous = outputs[-1] if outputs else None
            if (
                output.output_type == "stream"
                and previous is not None
                and previous.output_type == "stream"
                and previous.name == output.name
            ):
                previous.text += output.text
                continue
            data = output.get("data")
            if data is not None and WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
            outputs.append(output)
        cell.outputs = outputs
    return notebook


def run(path: Path, *, timeout: int = 1800) -> None:
    """Execute ``path`` in its own folder and write it back, normalised."""
    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import Config

    notebook = nbformat.read(path, as_version=4)
    config = Config({"KernelManager": {"transport_encryption": "auto"}})
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name=notebook.metadata.get("kernelspec", {}).get("name", "python3"),
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=False,
        config=config,
    )
    client.execute()
    nbformat.write(normalise(notebook), path)


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    from nbclient.exceptions import CellExecutionError

    for path in paths:
        print(f"running {path}", flush=True)
        try:
            run(path)
        except CellExecutionError as error:
            print(f"{path}: a cell failed: {error.ename}: {error.evalue} (the file is left as it was)",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
