#!/usr/bin/env bash
# End-to-end throughput and peak memory of `kifu audit` on the shared corpus.
#
# Usage: scripts/bench_pipeline.sh [REPEATS] [COMMAND]
#   REPEATS: runs per row, the best (lowest wall time) is reported; default 3.
#   COMMAND: audit (default: parse, replay, score under recorded,chinese,japanese, all reports)
#            or check (parse and replay only, findings on stdout).
#
# Measures, with the release binary:
#   - games/s with -j1 and -j2 on ../shared/corpus/aeb-pro/Honinbo (4,266 single-game files) and
#     on ../shared/corpus/tygem-9d/2016-12.sgf (one 7 MB collection of 5,204 games);
#   - peak RSS (/usr/bin/time -v) on one copy of that collection, on ten copies concatenated
#     into one 70 MB file, and on ten copies as ten files (bounded memory: what grows with a
#     file is its raw bytes, never parse trees, and nothing grows with the number of files).
# Wall time depends on the machine's load (2 shared cores here): the script also prints CPU
# seconds (user + sys) and the load average, so figures can be compared across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats="${1:-3}"
command="${2:-audit}"
shared="${KIFU_SHARED_CORPUS:-../shared/corpus}"
[ -d "$shared" ] || shared="../../shared/corpus"
if [ ! -d "$shared/aeb-pro/Honinbo" ]; then
    echo "shared corpus not found (set KIFU_SHARED_CORPUS); nothing measured" >&2
    exit 0
fi
cargo build --release --quiet
kifu="$PWD/target/release/kifu"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for i in $(seq 10); do cat "$shared/tygem-9d/2016-12.sgf"; done > "$work/tygem-x10.sgf"
mkdir "$work/tygem-10-files"
for i in $(seq 10); do cp "$shared/tygem-9d/2016-12.sgf" "$work/tygem-10-files/$i.sgf"; done

# One measured run: prints "wall_s cpu_s max_rss_kb games".
measure() {
    local out="$work/report" log="$work/time.log"
    rm -rf "$out"
    # Not quiet: the summary's first line ("kifu audit: N games from ...") gives the game count.
    # (The progress line stays hidden: standard error is not a terminal.)
    if [ "$command" = audit ]; then
        /usr/bin/time -v "$kifu" audit -o "$out" "$@" 2> "$log"
    else
        /usr/bin/time -v "$kifu" "$command" "$@" > /dev/null 2> "$log"
    fi
    local wall cpu rss games
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$log")
    cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$log")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    games=$(awk -v c="kifu $command:" 'index($0, c) == 1 {print $3; exit}' "$log")
    echo "$wall $cpu $rss $games"
}

# Best (lowest wall) of $repeats runs: prints "wall cpu rss games".
best() {
    local best_line="" best_wall=""
    for _ in $(seq "$repeats"); do
        line=$(measure "$@")
        wall=${line%% *}
        if [ -z "$best_wall" ] || awk -v a="$wall" -v b="$best_wall" 'BEGIN{exit !(a<b)}'; then
            best_wall=$wall best_line=$line
        fi
    done
    echo "$best_line"
}

echo "kifu $("$kifu" --version | cut -d' ' -f2) $command, $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
printf '| input | -j | games | wall s | CPU s | games/s (wall) | games/CPU-s | peak RSS MB |\n'
printf '|---|---|---|---|---|---|---|---|\n'
row() {
    local name=$1 jobs=$2; shift 2
    read -r wall cpu rss games <<< "$(best -j "$jobs" "$@")"
    awk -v n="$name" -v j="$jobs" -v g="$games" -v w="$wall" -v c="$cpu" -v r="$rss" 'BEGIN {
        printf "| %s | %s | %d | %.2f | %.2f | %.0f | %.0f | %.0f |\n", n, j, g, w, c, g/w, g/c, r/1024 }'
}
row "aeb-pro/Honinbo (4,266 files)" 1 "$shared/aeb-pro/Honinbo"
row "aeb-pro/Honinbo (4,266 files)" 2 "$shared/aeb-pro/Honinbo"
row "tygem-9d/2016-12.sgf (1 file, 7 MB)" 1 "$shared/tygem-9d/2016-12.sgf"
row "tygem-9d/2016-12.sgf (1 file, 7 MB)" 2 "$shared/tygem-9d/2016-12.sgf"
row "tygem-9d/2016-12.sgf x10 (1 file, 70 MB)" 2 "$work/tygem-x10.sgf"
row "tygem-9d/2016-12.sgf x10 (10 files of 7 MB)" 2 "$work/tygem-10-files"
