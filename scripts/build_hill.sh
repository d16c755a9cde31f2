#!/usr/bin/env bash
# Build David Hill's Java solver (github.com/DavidNHill/Minesweeper) and the benchmark's driver
# (benchmarks/peers/hill) for `python -m benchmarks.games race-hill` and `python -m benchmarks.one_step`.
# Nothing of the solver is kept in this project: it is cloned into DEST and compiled there.
#   scripts/build_hill.sh DEST [SOURCE]
# SOURCE: the repository to clone (default https://github.com/DavidNHill/Minesweeper), a URL or a
# local clone. Needs git and a JDK (javac 11 or later). Prints the classes directory to pass
# as --hill-classes (or HILL_CLASSES).
set -euo pipefail
dest=${1:?usage: scripts/build_hill.sh DEST [SOURCE]}
source=${2:-https://github.com/DavidNHill/Minesweeper}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
if [ ! -d "$dest/repo" ]; then
    git clone --quiet --depth 1 "$source" "$dest/repo"
fi
rm -rf "$dest/classes"
mkdir -p "$dest/classes"
{
    for part in Asynchronous MinesweeperGameState MineSweeperSolver MinesweeperBulk; do
        find "$dest/repo/$part/src" -name '*.java'
    done
    find "$here/benchmarks/peers/hill" -name '*.java'
} > "$dest/sources.txt"
javac -nowarn -encoding UTF-8 -d "$dest/classes" @"$dest/sources.txt" 2> "$dest/javac.log" || {
    cat "$dest/javac.log" >&2
    exit 1
}
echo "$dest/classes"
