#!/usr/bin/env bash
# 10^6 games per setup with the compiled players, on the setups MineSweeperProb publishes:
# first click safe in the corner (its SFAR@[1,1]) and an opening at its @[3,3] / @[4,4].
# Every batch goes to results/win_rates/RESULTS_NAME/SETUP.jsonl: run again to resume. Usage:
#   [RESULTS_NAME=name] scripts/fast_win_rates.sh [PLAYER] [GAMES] [WORKERS] [SETUP ...]
# With SETUPs (e.g. beginner-safe expert-opening) only those are played. RESULTS_NAME is the player's
# folder (results/win_rates/README.md lists each folder's player): a plain player name's own by
# default; a player with options (expert:score=secondary,...) needs one.
set -euo pipefail
cd "$(dirname "$0")/.."
player=${1:-probabilistic}  # a name, or NAME:OPTION=VALUE,... (e.g. expert:score=secondary,candidates=16)
if [[ -z "${RESULTS_NAME:-}" && "$player" == *:* ]]; then
    echo "fast_win_rates.sh: error: name the results folder of $player: RESULTS_NAME=short-name $0 ..." >&2
    exit 2
fi
folder="results/win_rates/${RESULTS_NAME:-$player}"
games=${2:-1000000}
workers=${3:-2}
only=" ${*:4} "
mkdir -p "$folder"
run() {  # preset first-click cell name
    if [[ "$only" != "  " && "$only" != *" $4 "* ]]; then return; fi
    .venv/bin/analyzer simulate --preset "$1" --player "$player" --games "$games" --first-click "$2" \
        --first-cell "$3" --seed 0 --workers "$workers" --no-progress --results "$folder/$4.jsonl"
}
# cheapest setups first, so that a run stopped part way has covered the most setups
run beginner safe 0,0 beginner-safe
run beginner opening 2,2 beginner-opening
run intermediate safe 0,0 intermediate-safe
run intermediate opening 2,2 intermediate-opening
run expert safe 0,0 expert-safe
run expert opening 3,3 expert-opening
