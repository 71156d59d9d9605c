#!/usr/bin/env bash
# Runs one fuzz target for a given time: scripts/fuzz.sh TARGET SECONDS
#
# Targets (scripts/fuzz/src/main.rs): notation, position, record (text game records),
# crsp (self-play record files), checkpoint, config (training and self-play TOML).
#
# Fuzzer: AFL++ through cargo-afl, on the stable toolchain. Coverage-guided fuzzing finds
# inputs deep in a parser (a valid header, then a bad length) that random mutation of the
# seeds alone would not; cargo-afl needs no nightly compiler, unlike cargo-fuzz/libFuzzer.
# The harness crate is outside the workspace (its own target directory, scripts/fuzz/target),
# so its instrumented build never invalidates the project's build.
#
# Prints executions per second and the number of crashes and hangs; saved crashes are in
# scripts/fuzz/out/TARGET/default/crashes (replay one: CRUMBLE_FUZZ_TARGET=TARGET
# scripts/fuzz/target/release/crumble-fuzz < FILE). Exit status 1 when a crash was found.
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 TARGET SECONDS" >&2
    exit 2
fi
target=$1 secs=$2
here=$(cd "$(dirname "$0")/fuzz" && pwd)
export CARGO_TARGET_DIR=$here/target

# cargo-afl and its AFL++ build are not part of the toolchain: install them once.
if ! cargo afl --version >/dev/null 2>&1; then
    cargo install cargo-afl
fi
# Builds AFL++ for this compiler; refuses (harmlessly) when that was done before.
cargo afl config --build >/dev/null 2>&1 || true
(cd "$here" && cargo afl build --release --quiet)
bin=$CARGO_TARGET_DIR/release/crumble-fuzz

corpus=$here/corpus
if [ ! -d "$corpus/$target" ]; then
    "$bin" make-seeds "$corpus"
fi
if [ ! -d "$corpus/$target" ]; then
    echo "unknown target $target" >&2
    exit 2
fi

out=$here/out/$target
rm -rf "$out"
mkdir -p "$out"
# Checkpoints build networks: allow more memory and time per input than the defaults, and
# still count an input over them as a crash or hang.
export CRUMBLE_FUZZ_TARGET=$target
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
export AFL_NO_AFFINITY=1 AFL_QUIET=1
cargo afl fuzz -V "$secs" -m 2048 -t 2000 -i "$corpus/$target" -o "$out" "$bin" \
    >"$out/afl.log" 2>&1 || true

stats=$out/default/fuzzer_stats
if [ ! -f "$stats" ]; then
    echo "the fuzzer did not start; its log:" >&2
    tail -30 "$out/afl.log" >&2
    exit 2
fi
field() { awk -F' *: *' -v k="$1" '$1 == k { print $2 }' "$stats"; }
echo "target $target: $(field run_time) s, $(field execs_done) executions," \
    "$(field execs_per_sec) exec/s, crashes $(field saved_crashes), hangs $(field saved_hangs)," \
    "corpus $(field corpus_count)"
[ "$(field saved_crashes)" = 0 ]
