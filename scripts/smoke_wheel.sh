#!/usr/bin/env bash
# The package as a user gets it: build the sdist and from it the wheel, check them, install the
# wheel into a fresh virtual environment outside the tree, make the installation read-only, and
# run the commands a user runs as another user (root ignores file modes), from a folder where the
# source tree is not importable. One line a step; the first failure stops it with a message.
#
#   bash scripts/smoke_wheel.sh          (make smoke; CI runs it after make test)
#
# BUILD_PYTHON (default .venv/bin/python) builds and checks: it needs the dev extra (build,
# twine). SMOKE_PYTHON is the interpreter of the user's environment (default: the first Python
# >= 3.11 the other user can run). Needs the package index (or pip's cache) for the wheel's
# dependencies. SMOKE_KEEP=1 keeps the temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_PYTHON=${BUILD_PYTHON:-$ROOT/.venv/bin/python}
START=$(date +%s.%N)
TMP=$(mktemp -d /tmp/smoke-wheel.XXXXXX)
chmod 755 "$TMP"
SERVER=

cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; fi
  if [ "${SMOKE_KEEP:-0}" = 1 ]; then echo "smoke: kept $TMP"; return; fi
  chmod -R u+w "$TMP" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "smoke: FAILED at line $LINENO of $0: $BASH_COMMAND" >&2' ERR

fail() {  # fail STEP MESSAGE [LOG]: the message, the log's last lines, exit 1
  echo "smoke: FAILED at $1: $2" >&2
  if [ -n "${3:-}" ] && [ -s "$3" ]; then tail -n 20 "$3" | sed 's/^/  | /' >&2; fi
  exit 1
}
elapsed() { awk -v start="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f s", now - start }'; }
ok() { printf '%-9s %s (%s)\n' "$1" "$2" "$(elapsed "$STEP_START")"; }

# Root ignores file modes: the commands run as nobody, for whom a read-only installation is one.
if [ "$(id -u)" = 0 ]; then
  AS_USER=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chown_user() { chown -R 65534:65534 "$@"; }
else
  AS_USER=()
  chown_user() { :; }
fi
VENV=$TMP/venv
mkdir "$TMP/home" "$TMP/work"
chown_user "$TMP/home" "$TMP/work"
# The user's environment: a home of their own, the venv first on PATH, nothing pointing at the tree.
USER_ENV=(env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV -u NUMBA_CACHE_DIR -u XDG_CACHE_HOME
  HOME="$TMP/home" PATH="$VENV/bin:$PATH")
run() { (cd "$TMP/work" && timeout 1200 "${AS_USER[@]}" "${USER_ENV[@]}" "$@"); }

STEP_START=$(date +%s.%N)
[ -x "$BUILD_PYTHON" ] || fail build "no $BUILD_PYTHON: make setup first, or set BUILD_PYTHON"
"$BUILD_PYTHON" -m build --outdir "$TMP/dist" "$ROOT" >"$TMP/build.log" 2>&1 \
  || fail build "python -m build failed" "$TMP/build.log"
WHEELS=("$TMP"/dist/*.whl)
SDISTS=("$TMP"/dist/*.tar.gz)
[ ${#WHEELS[@]} = 1 ] && [ ${#SDISTS[@]} = 1 ] || fail build "expected one wheel and one sdist in $TMP/dist"
WHEEL=${WHEELS[0]}
ok build "$(basename "${SDISTS[0]}"), and from it $(basename "$WHEEL")"

STEP_START=$(date +%s.%N)
"$BUILD_PYTHON" -m twine check --strict "$TMP"/dist/* >"$TMP/twine.log" 2>&1 \
  || fail twine "twine check --strict failed" "$TMP/twine.log"
ok twine "check --strict passed on the wheel and the sdist"

STEP_START=$(date +%s.%N)
CONTENTS=$("$BUILD_PYTHON" - "$WHEEL" "$ROOT" <<'EOF'
import sys, zipfile
from pathlib import Path

wheel, root = zipfile.ZipFile(sys.argv[1]), Path(sys.argv[2])
names = wheel.namelist()
in_tree = [p.relative_to(root).as_posix() for folder in ("analyzer/examples", "analyzer/replays/examples",
           "analyzer/interactive/static") for p in (root / folder).iterdir() if p.is_file()]
wanted = ["analyzer/__init__.py", "analyzer/_version.py", "analyzer/py.typed", *in_tree]
missing = [n for n in wanted if n not in names]
stray = [n for n in names if n.split("/")[0] in ("tests", "docs", "notebooks", "benchmarks", "results", "scripts")
         or "__pycache__" in n or n.endswith((".pyc", ".nbi", ".nbc"))]
if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
    missing.append("LICENSE")
if missing or stray:
    sys.exit(f"missing {missing}, should not be there {stray}")
size = sum(i.file_size for i in wheel.infolist())
print(f"{len(names)} files, {size / 1e6:.2f} MB unpacked, {Path(sys.argv[1]).stat().st_size / 1e6:.2f} MB zipped")
EOF
) || fail contents "the wheel's files are wrong"
ok contents "$CONTENTS: the package, its front end, examples and replays, py.typed, LICENSE; no tests"

# The user's interpreter: a Python >= 3.11 the other user can run (pyenv's under /root is not).
STEP_START=$(date +%s.%N)
PY=
for candidate in ${SMOKE_PYTHON:-} python3.11 python3.12 python3.13 python3 /usr/bin/python3; do
  path=$(command -v "$candidate" 2>/dev/null) || continue
  path=$(readlink -f "$path")
  if "${AS_USER[@]}" "$path" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    PY=$path
    break
  fi
done
[ -n "$PY" ] || fail venv "no Python >= 3.11 that user ${AS_USER:+nobody }can run: set SMOKE_PYTHON"
# --without-pip: Debian's Python has no ensurepip; the build environment's pip installs into it.
"$PY" -m venv --without-pip "$VENV" || fail venv "$PY -m venv failed"
"$BUILD_PYTHON" -m pip --python "$VENV/bin/python" install -q "$WHEEL[replays,widget,images]" >"$TMP/pip.log" 2>&1 \
  || fail venv "pip install $(basename "$WHEEL")[replays,widget,images] failed" "$TMP/pip.log"
PACKAGES=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(len(list(m.distributions())))') \
  || fail venv "the venv's Python does not run"
SITE=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
chmod -R a-w "$VENV"
ok venv "$("$PY" --version) at $PY, the wheel with [replays,widget,images]: $PACKAGES packages, then made read-only"

STEP_START=$(date +%s.%N)
VERSION=$(run python -c 'import importlib.metadata as m; print(m.version("minesweeper-analyzer"))') \
  || fail version "no installed distribution minesweeper-analyzer"
GOT=$(run analyzer --version 2>&1) || fail version "analyzer --version failed: $GOT"
[ "$GOT" = "analyzer $VERSION (minesweeper-analyzer)" ] || fail version "analyzer --version says '$GOT', metadata $VERSION"
case $(basename "$WHEEL") in *"-$VERSION-"*) ;; *) fail version "the wheel's name does not carry $VERSION";; esac
WHERE=$(run python -c 'import analyzer; print(analyzer.__version__, analyzer.__file__)' 2>&1) \
  || fail version "import analyzer failed: $WHERE"
[ "$WHERE" = "$VERSION $SITE/analyzer/__init__.py" ] || fail version "imported '$WHERE', not the installed $VERSION"
ok version "$GOT, imported from the read-only venv as user $(run id -un)"

STEP_START=$(date +%s.%N)
run analyzer warmup >"$TMP/warmup.log" 2>&1 || fail warmup "analyzer warmup failed" "$TMP/warmup.log"
grep -q "kernels ready" "$TMP/warmup.log" || fail warmup "no 'kernels ready' line" "$TMP/warmup.log"
ok warmup "every numba kernel compiled, site-packages not writable"

STEP_START=$(date +%s.%N)
BOARD=$(run python -c 'from analyzer import examples; print(examples.path("cs70_4x3_4.mine"))' 2>&1) \
  || fail solve "no bundled example board: $BOARD"
[[ $BOARD == "$SITE"/* ]] || fail solve "the bundled board is at $BOARD, not in the venv"
OUT=$(run analyzer solve "$BOARD" 2>&1) || fail solve "analyzer solve $BOARD failed: $OUT"
grep -q "^24 layouts" <<<"$OUT" || fail solve "analyzer solve printed no '24 layouts': $OUT"
ok solve "the bundled cs70_4x3_4.mine: 24 layouts"

STEP_START=$(date +%s.%N)
OUT=$(printf '4x2x2\n1HHH\nH1HH\n' | run analyzer explain - --cell 0,2 2>&1) || fail explain "analyzer explain failed: $OUT"
grep -q "(0, 2) is safe: forced by the clues 1 at (0, 0), 1 at (1, 1)" <<<"$OUT" \
  || fail explain "unexpected explanation: $OUT"
OUT=$(run analyzer explain "$BOARD" 2>&1) || fail explain "analyzer explain $BOARD failed: $OUT"
grep -q "no certain cell" <<<"$OUT" || fail explain "unexpected explanation of $BOARD: $OUT"
ok explain "the README's board: (0, 2) forced by two clues (CP-SAT); cs70_4x3_4.mine: no certain cell"

STEP_START=$(date +%s.%N)
REPLAY=$(run python -c 'from analyzer.replays import example_path; print(example_path("beginner_8x8_10.avf"))' 2>&1) \
  || fail replay "no bundled replay: $REPLAY"
OUT=$(run analyzer replay "$REPLAY" 2>&1) || fail replay "analyzer replay $REPLAY failed: $OUT"
grep -q "luck 20/73" <<<"$OUT" || fail replay "no 'luck 20/73' in: $OUT"
ok replay "the bundled beginner_8x8_10.avf (ms-toollib): luck 20/73"

STEP_START=$(date +%s.%N)
# A real screenshot (minesweeper.online, from tests/pictures/real) read by the installed reader:
# the analysis of the picture is the analysis of its hand transcription.
SHOT="$ROOT/tests/pictures/real/online/beginner"
cp "$SHOT.png" "$SHOT.mine" "$TMP/work/" && chown_user "$TMP/work/beginner.png" "$TMP/work/beginner.mine"
FROM_PICTURE=$(run analyzer solve --json beginner.png 2>"$TMP/picture.err") \
  || fail picture "analyzer solve beginner.png failed" "$TMP/picture.err"
FROM_TEXT=$(run analyzer solve --json beginner.mine 2>&1) || fail picture "analyzer solve beginner.mine failed: $FROM_TEXT"
[ "$FROM_PICTURE" = "$FROM_TEXT" ] || fail picture "the picture's analysis differs from its transcription's"
grep -q "^read a 9x9 board (online" "$TMP/picture.err" || fail picture "no 'read a 9x9 board' line" "$TMP/picture.err"
ok picture "a minesweeper.online screenshot (Pillow): read as its transcription, the same analysis"

STEP_START=$(date +%s.%N)
OUT=$(run analyzer simulate --preset beginner --player probabilistic --games 20 --first-cell 0,0 2>&1) \
  || fail simulate "analyzer simulate failed: $OUT"
WON=$(grep -o '^[0-9]*/20 won' <<<"$OUT") || fail simulate "no 'N/20 won' in: $OUT"
ok simulate "20 beginner games, probabilistic player: $WON"

STEP_START=$(date +%s.%N)
# exec all the way down: $! is the server's own process, which kill stops
(cd "$TMP/work" && exec "${AS_USER[@]}" "${USER_ENV[@]}" analyzer web --no-browser --port 0) >"$TMP/web.log" 2>&1 &
SERVER=$!
URL=
for _ in $(seq 600); do
  URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?token=[^ ]*' "$TMP/web.log" || true)
  [ -n "$URL" ] && break
  kill -0 "$SERVER" 2>/dev/null || fail web "analyzer web exited" "$TMP/web.log"
  sleep 0.1
done
[ -n "$URL" ] || fail web "analyzer web printed no URL in 60 s" "$TMP/web.log"
PAGE=$("$VENV/bin/python" - "$URL" <<'EOF'
import sys, urllib.request

with urllib.request.urlopen(sys.argv[1], timeout=30) as answer:
    body = answer.read().decode()
    if answer.status != 200 or "<title>analyzer: exact Minesweeper probabilities</title>" not in body:
        sys.exit(f"status {answer.status}, page {body[:200]!r}")
    print(f"{answer.status}, {len(body)} bytes")
EOF
) || fail web "the page did not answer as it should" "$TMP/web.log"
kill "$SERVER"
wait "$SERVER" 2>/dev/null || true
SERVER=
ok web "analyzer web --no-browser: the token URL answered $PAGE with the page; stopped"

STEP_START=$(date +%s.%N)
OUT=$(run python -c '
import analyzer
w = analyzer.widget(analyzer.examples.read("cs70_4x3_4.mine"))
assert w.analysis.total == 24 and "export" in w._esm, (w.analysis.total, w._esm[:80])
print(type(w).__name__, len(w._esm), "bytes of front end")
' 2>&1) || fail widget "the widget did not load: $OUT"
ok widget "analyzer.widget(...) is a $OUT"

# numba caches in the user's folder when it cannot write beside the source: the warm-up's
# kernels are found there (nothing uncached), this process loads one from there, and no cache
# file went into the venv.
STEP_START=$(date +%s.%N)
OUT=$(run python - "$TMP/home" "$SITE" <<'EOF' 2>&1
import os, sys
from pathlib import Path
from analyzer import jit, warmup
from analyzer.play import metrics

home, site = Path(sys.argv[1]), Path(sys.argv[2])
assert not os.access(site / "analyzer", os.W_OK), "site-packages is writable for this user: no test"
missing = warmup.uncached_kernels()
assert not missing, f"{len(missing)} kernels not cached after the warm-up: {missing[:3]}"
assert metrics.layout_metrics(4, 3, [(0, 0), (2, 3)]).bbbv == 2
stats = metrics._metrics.stats
assert Path(stats.cache_path).is_relative_to(home / ".cache" / "numba"), stats.cache_path
assert sum(stats.cache_hits.values()) == 1 and not stats.cache_misses, stats
files = sorted((home / ".cache" / "numba").rglob("*.nbi"))
print(f"{len(files)} kernels in ~/.cache/numba, loaded from there")
EOF
) || fail cache "$OUT"
STRAY=$(find "$VENV" -name '*.nb[ic]' | head -3)
[ -z "$STRAY" ] || fail cache "numba wrote into the venv: $STRAY"
ok cache "$OUT; none in the venv"

echo "smoke: every step passed in $(elapsed "$START")"
