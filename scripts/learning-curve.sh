#!/usr/bin/env bash
# scripts/learning-curve.sh: a long run of a recipe and what it is judged by, every step
# resumable: kill it at any moment (or lose the session) and run it again with the same
# arguments to go on from where it stopped.
#
#   1. `crumble train` of CONFIG in RUN until its ledger holds CPU_HOURS CPU-hours;
#   2. `crumble tournament` of every EVERY-th checkpoint with the anchors random,
#      mcts:rollout:200 and ANCHORS (schedule anchored: each checkpoint against every anchor
#      and its neighbour), GAMES games a pairing: RUN/curve/table.txt and the learning curve
#      as Elo against CPU-hours, RUN/curve/curve.svg;
#   3. the checkpoint the tournament rates highest against each of OPPONENTS, MATCH_GAMES
#      games from random 4-turn openings at SIMS simulations: RUN/curve/vs-*/;
#   4. its tactics suites: RUN/curve/tactics.txt.
#
# Usage: scripts/learning-curve.sh RUN [CPU_HOURS]   (default 8)
# Environment: CRUMBLE (default target/release/crumble), CONFIG (configs/default.toml, for a
# new run), EVERY (100: about one checkpoint a CPU-hour of the default recipe; a checkpoint's
# pairings cost about a quarter of a CPU-hour, most of it the games against
# mcts:rollout:800), GAMES (10), ANCHORS ("bot mcts:rollout:800"), OPPONENTS
# ("mcts:rollout:800 mcts:rollout:3200"), MATCH_GAMES (100), SIMS (64), STEPS ("train rate
# match tactics": the steps to run), UP_TO (rate only the checkpoints up to this generation:
# the rating step run beside a run that is still training), CONCURRENCY (games played at once
# by the tournament and the matches, default 16: a stop loses the games in progress, so on a
# machine of few cores, where each of 16 games takes long, fewer lose less; the results do
# not depend on it).
set -euo pipefail
# The whole script is one group, read before it runs: bash reads a script as it goes, so an
# edit made during an hours-long step would otherwise be read at the old offset after it.
{
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/learning-curve.sh RUN [CPU_HOURS]" >&2; exit 2; }
RUN=$1
HOURS=${2:-8}
CRUMBLE=${CRUMBLE:-target/release/crumble}
CONFIG=${CONFIG:-configs/default.toml}
EVERY=${EVERY:-100}
GAMES=${GAMES:-10}
ANCHORS=${ANCHORS:-bot mcts:rollout:800}
OPPONENTS=${OPPONENTS:-mcts:rollout:800 mcts:rollout:3200}
MATCH_GAMES=${MATCH_GAMES:-100}
SIMS=${SIMS:-64}
STEPS=${STEPS:-train rate match tactics}
UP_TO=${UP_TO:-}
CONCURRENCY=${CONCURRENCY:-16}
CURVE=$RUN/curve
step() { [[ " $STEPS " == *" $1 "* ]]; }
say() { printf '\n== %s\n' "$*" >&2; }

if step train; then
    say "training $RUN to $HOURS CPU-hours"
    config=()
    [ -f "$RUN/config.toml" ] || config=(--config "$CONFIG")
    "$CRUMBLE" train "${config[@]}" --run-dir "$RUN" --generations 1000000 --cpu-hours "$HOURS"
fi

# The anchors count: random and the rollout baseline, then ANCHORS.
read -ra anchors <<<"$ANCHORS"
mkdir -p "$CURVE"
if step rate || step match || step tactics; then
    say "rating every $EVERY-th checkpoint of $RUN"
    # The tournament plays only the pairings its directory does not hold yet and writes the
    # table there (ratings.csv, read below) as well as to stdout.
    upto=()
    [ -n "$UP_TO" ] && upto=(--up-to "$UP_TO")
    "$CRUMBLE" tournament --run-dir "$RUN" --every "$EVERY" "${upto[@]}" --rollout-sims 200 \
        --agents "${anchors[@]}" --schedule "anchored:$((2 + ${#anchors[@]}))" \
        --games-per-pair "$GAMES" --concurrency "$CONCURRENCY" --out "$CURVE/tournament" \
        --plot "$CURVE/curve.svg" --force \
        --plot-x cpu-hours | tee "$CURVE/table.txt"
fi

# The highest-rated checkpoint: the table's first `gen-NNNN` row (rows are by rating).
best=$(grep -o 'gen-[0-9]\{4\}' "$CURVE/tournament/ratings.csv" 2>/dev/null | head -1 || true)
if step match || step tactics; then
    [ -n "$best" ] || { echo "no rated checkpoint in $CURVE/tournament/ratings.csv" >&2; exit 1; }
    net=$RUN/checkpoints/$best/net.crnet
    say "best checkpoint: $best"
fi

if step match; then
    for opp in $OPPONENTS; do
        out=$CURVE/vs-${opp//:/-}
        say "$best against $opp, $MATCH_GAMES games"
        resume=()
        [ -f "$out/match-settings.json" ] && resume=(--resume)
        "$CRUMBLE" match "ckpt:$net:$SIMS" "$opp" --config "$RUN/config.toml" --opening-turns 4 \
            --games "$MATCH_GAMES" --concurrency "$CONCURRENCY" --out "$out" "${resume[@]}"
    done
fi

if step tactics; then
    say "tactics of $best"
    "$CRUMBLE" tactics --agent "ckpt:$net:$SIMS" --config "$RUN/config.toml" | tee "$CURVE/tactics.txt"
fi
exit
}
