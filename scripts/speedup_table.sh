#!/usr/bin/env bash
# Prints one line per configuration of a run's summary.csv: the candidate's
# speedup over one baseline (headline, 95 % CI, its half-width, the paper's
# estimator, rounds) beside the window and the telemetry of that
# configuration.  Percentages; columns found by name.
# usage: scripts/speedup_table.sh results/<run-id>/summary.csv [BASELINE (default cublas-nn)]
set -euo pipefail
csv=${1:?usage: scripts/speedup_table.sh summary.csv [BASELINE]}
baseline=${2:-cublas-nn}
[ -f "$csv" ] || { echo "speedup_table.sh: $csv not found" >&2; exit 3; }
awk -F, -v base="$baseline" '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["role"] == "candidate" {
    key = $c["m"] "x" $c["n"] "x" $c["k"]
    verdict[key] = $c["verdict"]; stop[key] = $c["stopped_by"]; timed[key] = $c["timed_s"]
    clk[key] = $c["sm_clock_min_mhz"] == "" ? "-" : sprintf("%d/%.0f", $c["sm_clock_min_mhz"], $c["sm_clock_mean_mhz"]); thr[key] = $c["throttle_reasons"]
    mode[key] = $c["mode"]; rate[key] = $c["achieved_rate_per_s"]
}
$c["participant"] == base {
    key = $c["m"] "x" $c["n"] "x" $c["k"]
    order[n++] = key
    line[key] = sprintf("%+8.3f [%+8.3f, %+8.3f] %7.3f %+9.3f %7d", 100 * $c["speedup_geomean"],
                        100 * $c["speedup_ci95_low"], 100 * $c["speedup_ci95_high"],
                        100 * $c["speedup_ci95_halfwidth"], 100 * $c["speedup_paper"], $c["speedup_pairs"])
}
END {
    printf "%-16s %-7s %-7s %8s %-21s %7s %9s %7s %6s %-9s %7s %-11s %s\n", "config", "mode", "verdict", "headline",
           "95% CI", "half", "paper", "rounds", "timed", "ended-by", "rate/s", "SM min/mean", "throttle"
    for (i = 0; i < n; i++) {
        k = order[i]
        printf "%-16s %-7s %-7s %s %6.1f %-9s %7s %-11s %s\n", k, mode[k], verdict[k], line[k], timed[k], stop[k],
               rate[k] == "" ? "-" : sprintf("%.0f", rate[k]), clk[k], thr[k]
    }
}' "$csv"
