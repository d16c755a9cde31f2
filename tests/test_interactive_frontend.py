"""The board's script (analyzer.interactive.frontend): one module joined from ``static/board/``'s parts.

The page (``/board.js``) and the widget (``_esm``) serve the same joined text; every part is
listed, in an order where each comes after what it imports, and is used; a part left out fails.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from analyzer.interactive.frontend import BOARD_PARTS, assemble_script, board_script, static_text
from analyzer.interactive.session import Session
from analyzer.interactive.web import WebServer

PARTS = Path(__file__).resolve().parent.parent / "analyzer" / "interactive" / "static" / "board"
BOARD = "3x1x1\nH1H\n"


def _parts() -> list[tuple[str, str]]:
    return [(name, (PARTS / name).read_text(encoding="utf-8")) for name in BOARD_PARTS]


def test_the_page_and_the_widget_serve_the_joined_script() -> None:
    script = board_script()
    assert static_text("board.js") == script
    with WebServer(Session(BOARD), port=0) as server:
        request = urllib.request.Request(f"{server.origin}/board.js?token={server.token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.read().decode("utf-8") == script
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    assert BoardWidget._esm == script


def test_the_script_holds_every_part_in_order_without_their_imports() -> None:
    script = board_script()
    starts = [script.index(f"// ---- {name}\n") for name in BOARD_PARTS]
    assert starts == sorted(starts) and starts[0] == 0
    outside = [line for line in script.splitlines() if line.startswith(("import ", "export "))]
    assert outside == ["export default { render };"] and script.endswith(outside[0] + "\n")
    # Each part's own lines are there, as written (an export without its keyword).
    for name, text in _parts():
        lines = [
            line if line.startswith("export default ") else line.removeprefix("export ")
            for line in text.splitlines()
            if not line.startswith("import ")
        ]
        assert "\n".join(lines) in script, name


def test_the_parts_are_the_files_of_static_board() -> None:
    # A part written but not listed would never be served: the folder holds the parts and nothing else.
    assert sorted(p.name for p in PARTS.iterdir()) == sorted(BOARD_PARTS)
    assert len(set(BOARD_PARTS)) == len(BOARD_PARTS)
    for name, text in _parts():
        assert len(text.splitlines()) < 600, f"{name} is no longer small"


@pytest.mark.parametrize("left_out", BOARD_PARTS)
def test_a_part_left_out_fails(left_out: str) -> None:
    parts = [part for part in _parts() if part[0] != left_out]
    with pytest.raises(ValueError, match=r"^board part [\w.]+: "):
        assemble_script(parts)


def test_parts_out_of_order_fail() -> None:
    parts = _parts()
    parts[0], parts[1] = parts[1], parts[0]  # dom.js before protocol.js: nothing of one needs the other
    assert assemble_script(parts) != board_script()
    with pytest.raises(
        ValueError, match=r"^board part render\.js: imports from \./dom\.js, which is not a part before"
    ):
        assemble_script([parts[-1], *parts[:-1]])


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ([("a.js", "export const A = 1;\n"), ("b.js", "export default {};\n")], "a.js: exports A, which no"),
        ([("a.js", "const A = 1;\n"), ("b.js", "export default {};\n")], "a.js: exports nothing"),
        (
            [
                ("a.js", "export const A = 1;\n"),
                ("b.js", 'import { B } from "./a.js";\nexport default {};\n'),
            ],
            "b.js: imports B from ./a.js, which does not export them",
        ),
        ([("a.js", "export default {};\n"), ("b.js", "export default {};\n")], "a.js: has an export default"),
        ([("a.js", "export const A = 1;\n"), ("b.js", 'import { A } from "./a.js";\n')], "b.js: is the last"),
        ([("a.js", "import x from './x.js';\nexport default {};\n")], 'a.js: "import x from'),
        ([("a.js", "export { A };\nexport default {};\n")], "a.js: 'export { A };' is neither"),
        ([], "no board parts"),
    ],
)
def test_parts_that_do_not_fit_together_fail(parts: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        assemble_script(parts)


NODE = shutil.which("node")
LOAD = 'const m = await import("./board/render.js"); console.log(typeof m.default.render)'


@pytest.mark.skipif(NODE is None, reason="needs node to parse JavaScript")
def test_the_script_and_its_parts_are_es_modules(tmp_path: Path) -> None:
    # The joined script parses as a module; the parts, as they are, load as modules of their own.
    assert NODE is not None
    (tmp_path / "board.mjs").write_text(board_script(), encoding="utf-8")
    subprocess.run([NODE, "--check", str(tmp_path / "board.mjs")], check=True, timeout=60)
    shutil.copytree(PARTS, tmp_path / "board")
    (tmp_path / "board" / "package.json").write_text(json.dumps({"type": "module"}), encoding="utf-8")
    loaded = subprocess.run(
        [
            NODE,
            "--input-type=module",
            "-e",
            'const m = await import("./board/render.js"); console.log(typeof m.default.render)',
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert loaded.stdout.strip() == "function"
