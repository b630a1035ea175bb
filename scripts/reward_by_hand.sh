#!/usr/bin/env bash
# Recomputes the reward (docs/gate.md, "Reward") of every configuration of a
# run or gate made with --reward and --raw, by hand: the speed term from the
# raw samples (<run>/raw/NNNN_MxNxK.bin: mean over the rounds of t_ref/t_cand,
# each clipped into [LO, HI] when a clip applies, on the timer and against the
# participant verdict.json's reward names), the diff and length terms from
# verdict.json; and prints the harness's r beside it with their difference.
#
#   scripts/reward_by_hand.sh RUN_DIR [ALPHA BETA [LO HI]]
#
# ALPHA, BETA (and LO, HI) replace the run's coefficients (and clip): the
# figure by hand is then the reward the run would have had with them, shown
# beside the run's own r but not held to it.  Needs only od and awk (no jq,
# no python): it runs on a bare GPU machine.  Exit 0 when every
# configuration's figures agree (the raw file keeps float32 times, about 7
# significant digits: agreement is within 1e-5 of the speed term), 1 when
# one does not, 2 on bad usage or an unreadable run folder.
set -euo pipefail

usage() {
    echo "usage: $0 RUN_DIR [ALPHA BETA [LO HI]]  (a run folder of run/gate --reward ... --raw)" >&2
    exit 2
}
[ $# -eq 1 ] || [ $# -eq 3 ] || [ $# -eq 5 ] || usage
run_dir=$1
alpha_given=${2:-}
beta_given=${3:-}
low_given=${4:-}
high_given=${5:-}
for tool in od awk; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is not installed" >&2; exit 2; }
done
verdict=$run_dir/verdict.json
[ -r "$verdict" ] || { echo "$0: $verdict cannot be read: give a run folder (results/<run-id>)" >&2; exit 2; }
[ -d "$run_dir/raw" ] || { echo "$0: $run_dir/raw is missing: the run was made without --raw" >&2; exit 2; }

# One line per configuration of verdict.json, in order: "index|MxNxK|null" or
# "index|MxNxK|r|alpha|beta|vs_participant|timer|rounds|diff_mean|length_bytes|clip_low|clip_high|speed_term".
# jansson writes the file indented by two spaces a level: a configuration's
# keys sit at six spaces, the reward's at eight, the clip's bounds at ten.
rewards=$(awk '
    function value(line) { sub(/^ *"[a-z_]+": */, "", line); sub(/,$/, "", line); gsub(/"/, "", line); return line }
    /^      "mnk": \[/ { config++; mnk = ""; in_mnk = 1; next }
    in_mnk && /^        [0-9]+,?$/ { v = $1; sub(/,$/, "", v); mnk = mnk (mnk == "" ? "" : "x") v; next }
    in_mnk { in_mnk = 0 }
    /^      "reward": null/ { print config - 1 "|" mnk "|null"; next }
    /^      "reward": \{/ { inside = 1; delete f; bound = 0; next }
    inside && /^      \}/ {
        inside = 0
        print config - 1 "|" mnk "|" f["r"] "|" f["alpha"] "|" f["beta"] "|" f["vs_participant"] "|" f["timer"] "|" \
              f["rounds"] "|" f["diff_mean"] "|" f["length_bytes"] "|" f["clip_low"] "|" f["clip_high"] "|" \
              f["speed_term"]
        next
    }
    inside && /^          [-0-9.eE+]+,?$/ { v = $1; sub(/,$/, "", v); f[bound++ ? "clip_high" : "clip_low"] = v; next }
    inside && /^        "/ { key = $1; gsub(/[":]/, "", key); f[key] = value($0) }
' "$verdict")
[ -n "$rewards" ] || { echo "$0: $verdict lists no configuration" >&2; exit 2; }

printf '%-6s %-18s %8s %-5s %-24s %14s %14s %14s %14s %11s\n' config mnk rounds timer t_ref speed speed_by_hand \
    r r_by_hand difference
status=0
while IFS='|' read -r index mnk r alpha beta ref timer rounds diff length low high speed; do
    raw=$(ls "$run_dir"/raw/"$(printf '%04d' "$index")"_*.bin 2>/dev/null | head -n 1 || true)
    if [ "$r" = null ]; then
        printf '%-6s %-18s no reward (verdict.json: reward null; reward_note says why)\n' "$index" "$mnk"
        continue
    fi
    [ -n "$raw" ] || { echo "$0: no raw file for configuration $index in $run_dir/raw" >&2; status=1; continue; }
    # The header's text: participantI=NAME; the candidate is participant 0.
    participants=$(head -c 4096 "$raw" | tr '\0' '\n' | grep -c '^participant[0-9]*=' || true)
    ref_index=$(head -c 4096 "$raw" | tr '\0' '\n' | awk -F= -v name="$ref" \
        '$1 ~ /^participant[0-9]+$/ && $2 == name { sub(/^participant/, "", $1); print $1 }')
    [ -n "$ref_index" ] || { echo "$0: $raw has no participant $ref" >&2; status=1; continue; }
    use_alpha=${alpha_given:-$alpha}
    use_beta=${beta_given:-$beta}
    use_low=$low use_high=$high
    if [ -n "$alpha_given" ]; then # the caller's settings replace the run's, clip included (none without LO HI)
        use_low=$low_given use_high=$high_given
    fi
    # Records of 24 bytes, round-major: six float32 words each, event_us the
    # fourth and wall_us the fifth (the first two, integers, read as garbage
    # floats here and are not used).
    od -A n -v -t f4 -j 4096 -w24 "$raw" | awk -v p="$participants" -v ref="$ref_index" \
        -v column="$([ "$timer" = wall ] && echo 5 || echo 4)" -v low="$use_low" -v high="$use_high" \
        -v alpha="$use_alpha" -v beta="$use_beta" -v diff="$diff" -v bytes="$length" -v harness_r="$r" \
        -v harness_speed="$speed" -v rounds_json="$rounds" -v cfg="$index" -v mnk="$mnk" -v timer="$timer" \
        -v name="$ref" \
        -v own="$([ -z "$alpha_given" ] && echo 1 || echo 0)" '
        { record = NR - 1; part = record % p; round = int(record / p); t[round, part] = $column; last = round }
        END {
            n = last + 1; sum = 0
            for (i = 0; i < n; i++) {
                ratio = t[i, ref] / t[i, 0]
                if (low != "" && ratio < low + 0) ratio = low + 0
                if (high != "" && ratio > high + 0) ratio = high + 0
                sum += ratio
            }
            speed = sum / n
            l = (bytes == "null" || bytes == "") ? 0 : bytes + 0
            r = speed - alpha * diff - beta * l
            printf "%-6s %-18s %8d %-5s %-24s %14.9g %14.9g %14.9g %14.9g %+11.3g\n", cfg, mnk, n, timer, name, \
                   harness_speed, speed, harness_r, r, r - harness_r
            bad = own && (n != rounds_json + 0 || (r - harness_r > 1e-5 * speed || harness_r - r > 1e-5 * speed))
            exit bad
        }' || status=1
done <<<"$rewards"
if [ -n "$alpha_given" ]; then
    echo "(r_by_hand with ALPHA $alpha_given BETA $beta_given${low_given:+ clip [$low_given, $high_given]}; r is the run's own, with its coefficients)"
else
    echo "(r_by_hand: the run's coefficients; speed from the raw float32 times, diff and length from verdict.json)"
fi
if [ $status -ne 0 ]; then
    echo "reward-by-hand: DISAGREEMENT (above)"
elif [ -n "$alpha_given" ]; then
    echo "reward-by-hand: computed with the coefficients given (not held to the run's r)"
else
    echo "reward-by-hand: every configuration agrees"
fi
exit $status
