#!/usr/bin/env bash
# Full win-rate runs (figures quoted in docs/win_rates_full.md). Resumable: results/full.jsonl.
cd "$(dirname "$0")/.."
A=".venv/bin/analyzer simulate --workers 2 --seed 0 --results results/full.jsonl --no-progress"
for r in 1 2 3 4; do
  echo "== safe zone $r local"; $A --width 10 --height 10 --mines 10 --player local --games 100000 --first-click safe_zone:$r --first-cell random
done
for p in beginner intermediate; do
  echo "== $p probabilistic safe corner"; $A --preset $p --player probabilistic --games 100000 --first-click safe --first-cell 0,0
  echo "== $p probabilistic opening 3,3"; $A --preset $p --player probabilistic --games 100000 --first-click opening --first-cell 3,3
done
echo "== expert probabilistic safe corner"; $A --preset expert --player probabilistic --games 10000 --first-click safe --first-cell 0,0
echo "== expert probabilistic opening 3,3"; $A --preset expert --player probabilistic --games 10000 --first-click opening --first-cell 3,3
echo ALL DONE
