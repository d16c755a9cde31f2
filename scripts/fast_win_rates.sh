#!/usr/bin/env bash
# 10^6 games per setup with the compiled players, on the setups MineSweeperProb publishes:
# first click safe in the corner (its SFAR@[1,1]) and an opening at its @[3,3] / @[4,4].
# Every batch goes to results/fast/*.jsonl: run again to resume. Usage:
#   scripts/fast_win_rates.sh [PLAYER] [GAMES] [WORKERS] [SETUP ...]
# With SETUPs (e.g. beginner-safe expert-opening) only those are played.
set -euo pipefail
cd "$(dirname "$0")/.."
player=${1:-probabilistic}  # a name, or NAME:OPTION=VALUE,... (e.g. expert:score=secondary,candidates=16)
file=${player//[:\/,=]/_}    # its results file's name: expert_score_secondary_candidates_16
games=${2:-1000000}
workers=${3:-2}
only=" ${*:4} "
mkdir -p results/fast
run() {  # preset first-click cell name
    if [[ "$only" != "  " && "$only" != *" $4 "* ]]; then return; fi
    .venv/bin/analyzer simulate --preset "$1" --player "$player" --games "$games" --first-click "$2" \
        --first-cell "$3" --seed 0 --workers "$workers" --no-progress --results "results/fast/$file-$4.jsonl"
}
# cheapest setups first, so that a run stopped part way has covered the most setups
run beginner safe 0,0 beginner-safe
run beginner opening 2,2 beginner-opening
run intermediate safe 0,0 intermediate-safe
run intermediate opening 2,2 intermediate-opening
run expert safe 0,0 expert-safe
run expert opening 3,3 expert-opening
