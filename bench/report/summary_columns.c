/* The column table.  Each column is one line, X(name, value): its name as a
 * C identifier (the string is #name) and an expression of the row `r` giving
 * its cell.  The lists expand twice below: once into a value function per
 * column, once into the table, so a name and its value are written once and
 * side by side, and the order of the lines is the order of the header.
 *
 * When a column is empty is part of the contract with the scripts reading
 * summary.csv (docs/results.md): the conditions below (num_if, text_if) say
 * it, and a NaN value is empty too. */
#include "bench/report/summary_columns.h"

#include "bench/result/deviation_rule.h"

#include <string.h>

#include "bench/core/gemm_types.h"
#include "bench/core/timing_policy.h"
#include "bench/result/deviation_rule.h"
#include "bench/result/plausibility.h"
#include "bench/result/reference_record.h"
#include "bench/result/replay_record.h"
#include "bench/result/telemetry_summary.h"
#include "bench/result/verdict.h"

/* --- what the column lines are written with ------------------------------------ */

/* Short names: the column lines are read side by side, one a line. */
static hb_cell num(double value)
{
    return hb_cell_number(value);
}

static hb_cell num_if(int applies, double value)
{
    return applies ? hb_cell_number(value) : hb_cell_empty();
}

static hb_cell text(const char *value)
{
    return hb_cell_string(value);
}

static hb_cell text_if(int applies, const char *value)
{
    return applies ? hb_cell_string(value) : hb_cell_empty();
}

/* The parts of the record a column reads, named as the groups think of them. */
static const hb_config_result *cfg(const hb_row *r) { return r->config; }
static const hb_participant_result *part(const hb_row *r) { return r->participant; }
static const hb_participant_desc *desc(const hb_row *r) { return &r->participant->desc; }
static const hb_time_summary *event(const hb_row *r) { return &r->participant->event_ms; }
static const hb_time_summary *wall(const hb_row *r) { return &r->participant->wall_ms; }
/* The headline: on the configuration's headline timer (events, or the wall clock: headline_timer says). */
static const hb_speedup_summary *speedup(const hb_row *r) { return hb_headline_speedup(r->config, r->participant); }
static const hb_speedup_summary *speedup_event(const hb_row *r) { return &r->participant->speedup_event; }
static const hb_timer_agreement *timers(const hb_row *r) { return &r->participant->timers; }
static const hb_battery_record *battery(const hb_row *r) { return &r->config->battery; }
static const hb_exact_record *exact_binary(const hb_row *r) { return &r->config->battery.exact_binary; }
static const hb_exact_record *exact_signed(const hb_row *r) { return &r->config->battery.exact_signed; }
static const hb_algo_record *algo(const hb_row *r) { return &r->participant->desc.algo; }
static const hb_timing_record *timing(const hb_row *r) { return &r->config->timing; }
static const hb_window_report *window(const hb_row *r) { return &r->config->window; }
static const hb_telemetry_summary *tel(const hb_row *r) { return &r->config->telemetry; }
static const hb_module_state *module(const hb_row *r) { return &r->config->module_state; }
static const hb_plausibility *plaus(const hb_row *r) { return &r->config->plausibility; }
static const hb_kernel_time *kern(const hb_row *r) { return &r->participant->kernel; }
static const hb_cross_check *cross(const hb_row *r) { return &r->config->cross_check; }

/* When a group applies: the candidate's own figures and the baselines'
 * comparisons with it exist only in their rows, and only when timed. */
static int candidate(const hb_row *r) { return r->participant->is_candidate; }
static int measured(const hb_row *r) { return r->config->measured; }
/* An implausible time keeps its times but gets no speedups (bench/result/plausibility.h). */
static int timed_baseline(const hb_row *r) { return hb_result_has_speedups(cfg(r)) && !candidate(r); }
static int timed_candidate(const hb_row *r) { return measured(r) && candidate(r); }
static int server(const hb_row *r) { return timing(r)->mode == HB_MODE_SERVER; }
static int target_ci(const hb_row *r) { return timing(r)->target_ci > 0; }
static int telemetry_on(const hb_row *r) { return timed_candidate(r) && tel(r)->available; }
static int binary_ran(const hb_row *r) { return candidate(r) && exact_binary(r)->ran; }
static int signed_ran(const hb_row *r) { return candidate(r) && exact_signed(r)->ran; }
static const hb_deviation_record *dev(const hb_row *r) { return &r->config->battery.deviation; }
static int dev_ran(const hb_row *r) { return candidate(r) && dev(r)->checks > 0; }
static int module_scanned(const hb_row *r) { return candidate(r) && module(r)->scanned; }
static int peak_judged(const hb_row *r) { return candidate(r) && plaus(r)->source != HB_PEAK_NOT_JUDGED; }
static int peak_known(const hb_row *r) { return peak_judged(r) && plaus(r)->peak_tflops > 0; }
static int peak_clocked(const hb_row *r) { return peak_judged(r) && plaus(r)->source == HB_PEAK_TABLE; }
static int traced(const hb_row *r) { return kern(r)->traced; }
static int timer_compared(const hb_row *r) { return measured(r) && timers(r)->compared > 0; }
/* A trace judged it, or a finding read from its file stands without one. */
static int conduct_judged(const hb_row *r)
{
    return candidate(r) && (cfg(r)->conduct.traced || (cfg(r)->conduct.found & hb_finding_static_mask()));
}
static int mma_audited(const hb_row *r) { return candidate(r) && cfg(r)->mma_audited; }
static int sanitized(const hb_row *r) { return candidate(r) && cfg(r)->sanitize.ran; }
static int rewarded(const hb_row *r) { return candidate(r) && cfg(r)->reward.earned; }
static int code_sealed(const hb_row *r) { return candidate(r) && cfg(r)->code_pages.ranges > 0; }
static const hb_reference_record *ref(const hb_row *r) { return &r->config->baseline_reference; }
static int ref_judged(const hb_row *r) { return candidate(r) && ref(r)->judged; }
static int ref_held(const hb_row *r) { return !candidate(r) && part(r)->reference.held; }
static const hb_replay_record *replay(const hb_row *r) { return &r->config->replay; }
/* A launcher's recording was attempted (--form replay); it has a replay when nothing refused it. */
static int recorded(const hb_row *r) { return candidate(r) && replay(r)->recorded; }
static int replayed(const hb_row *r) { return recorded(r) && replay(r)->refusal == HB_REFUSE_NONE; }

/* --- values that need more than an expression ----------------------------------- */

static const double us_per_ms = 1e3; /* samples are milliseconds; summary.csv says microseconds */

static const char *role(const hb_row *r)
{
    return candidate(r) ? "candidate" : part(r)->max_of[0] ? "baseline-max" : "baseline";
}

/* TFLOP/s at a median time in milliseconds. */
static hb_cell tflops(const hb_row *r, double median_ms)
{
    const hb_mnk *c = &cfg(r)->mnk;
    return num_if(measured(r), hb_gemm_flops(c->m, c->n, c->k) / (median_ms * 1e-3) * 1e-12);
}

/* An NVML reading: negative when it was not read. */
static hb_cell reading(const hb_row *r, double value)
{
    return num_if(telemetry_on(r) && value >= 0, value);
}

static hb_cell throttle_reasons(const hb_row *r)
{
    if (!telemetry_on(r))
        return hb_cell_empty();
    hb_cell cell = hb_cell_own_text();
    /* 160: the buffer summary.csv has always written the names from, so a
     * long list of unknown bits is cut where it always was. */
    hb_throttle_reason_names(tel(r)->reasons_seen, cell.own, 160);
    return cell;
}

/* The candidate's findings: names ("alloc,sync"), or every line, " | "-separated. */
static hb_cell conduct_cell(const hb_row *r, int lines)
{
    if (!conduct_judged(r))
        return hb_cell_empty();
    hb_cell cell = hb_cell_own_text();
    const hb_conduct *c = &cfg(r)->conduct;
    if (lines)
        hb_conduct_lines(c, ~0u, " | ", cell.own, sizeof cell.own);
    else
        hb_finding_names(c->found, cell.own, sizeof cell.own);
    return cell;
}

static hb_cell mma_cell(const hb_row *r)
{
    if (!mma_audited(r))
        return hb_cell_empty();
    hb_cell cell = hb_cell_own_text();
    hb_mma_audit_format(&cfg(r)->mma, cell.own, sizeof cell.own);
    return cell;
}

static hb_cell sanitize_cell(const hb_row *r)
{
    if (!sanitized(r))
        return hb_cell_empty();
    hb_cell cell = hb_cell_own_text();
    hb_sanitize_cell(&cfg(r)->sanitize, cell.own, sizeof cell.own);
    return cell;
}

/* The participant's kernel of most GPU time in the profile (a -max row: its
 * layout's), or NULL where the pass profiled none of its kernels. */
static const hb_kernel_profile *profiled(const hb_row *r)
{
    return hb_profile_longest_kernel(&cfg(r)->profile, part(r)->max_of[0] ? part(r)->max_of : part(r)->name);
}

static hb_cell profile_value(const hb_row *r, hb_profile_metric metric)
{
    const hb_kernel_profile *k = profiled(r);
    return k ? num(k->value[metric]) : hb_cell_empty();
}

static hb_cell profile_kernel(const hb_row *r)
{
    const hb_kernel_profile *k = profiled(r);
    return k ? text(k->kernel) : hb_cell_empty();
}

static hb_cell timer_reasons(const hb_row *r)
{
    if (!timed_candidate(r))
        return hb_cell_empty();
    hb_cell cell = hb_cell_own_text();
    hb_timer_reason_names(cfg(r)->timer_reasons, cell.own, sizeof cell.own);
    return cell;
}

static hb_cell reference_cell(const hb_row *r)
{
    if (!candidate(r))
        return hb_cell_empty();
    hb_cell cell = hb_cell_own_text();
    hb_reference_cell(ref(r), cell.own, sizeof cell.own);
    return cell;
}

static hb_cell clock_warning(const hb_row *r)
{
    if (!telemetry_on(r))
        return hb_cell_empty();
    hb_cell cell = hb_cell_own_text();
    hb_telemetry_warning(tel(r), cell.own, sizeof cell.own);
    return cell;
}

/* --- the columns, group by group, in the header's order --------------------------- */

/* Which row this is: every row has it. */
#define IDENTITY_COLUMNS(X)                                                                                            \
    X(run_id, text(r->run_id))                                                                                         \
    X(m, num(cfg(r)->mnk.m)) /* 1..262144 (hb_parse_mnk): %.9g writes each digit */                                    \
    X(n, num(cfg(r)->mnk.n))                                                                                           \
    X(k, num(cfg(r)->mnk.k))                                                                                           \
    X(participant, text(part(r)->name))                                                                                \
    X(role, text(role(r)))

/* The verdict, check and reason are the candidate's; a baseline row says it ran. */
#define VERDICT_COLUMNS(X)                                                                                             \
    X(verdict, text(candidate(r) ? hb_verdict_name(cfg(r)->verdict) : "ok"))                                           \
    X(check, text_if(candidate(r), cfg(r)->check))                                                                     \
    X(reason, text_if(candidate(r), cfg(r)->reason))

/* How the participant computes: known before anything runs, so every row has it. */
#define DESCRIPTION_COLUMNS(X)                                                                                         \
    X(acc_class, text(r->acc_class))                                                                                   \
    X(compute_type, text(desc(r)->compute_type))                                                                       \
    X(scale_type, text(desc(r)->scale_type))                                                                           \
    X(algorithm, text(desc(r)->algorithm))                                                                             \
    X(workspace_bytes, num((double)desc(r)->workspace_bytes))                                                          \
    X(b_layout, text(hb_b_layout_name(desc(r)->b_layout)))                                                             \
    X(padded_m, num_if(desc(r)->padded[0] != 0, desc(r)->padded[0]))                                                   \
    X(padded_n, num_if(desc(r)->padded[1] != 0, desc(r)->padded[1]))                                                   \
    X(padded_k, num_if(desc(r)->padded[2] != 0, desc(r)->padded[2]))

/* The first deviation check before timing: every participant once it
 * completed, against the fp32 reference (the paper's rule) and the fp64
 * one (the ulp-excess rule); the paper's bound is the candidate's. */
#define CHECK_COLUMNS(X)                                                                                               \
    X(paper_max_abs_dev, num_if(cfg(r)->checked, part(r)->deviation.max_abs))                                          \
    X(paper_dev_bound, num_if(cfg(r)->checked && candidate(r), cfg(r)->deviation_bound))                               \
    X(excess_max, num_if(cfg(r)->checked, part(r)->excess.max))                                                        \
    X(excess_beyond, num_if(cfg(r)->checked, (double)part(r)->excess.beyond))                                          \
    X(non_finite, num_if(cfg(r)->checked, (double)part(r)->deviation.non_finite))

/* Times exist once the windows ran (a candidate that failed a check is not timed). */
#define TIME_COLUMNS(X)                                                                                                \
    X(samples, num_if(measured(r), (double)event(r)->n))                                                               \
    X(event_median_us, num_if(measured(r), event(r)->median * us_per_ms))                                              \
    X(event_mean_us, num_if(measured(r), event(r)->mean * us_per_ms))                                                  \
    X(event_min_us, num_if(measured(r), event(r)->min * us_per_ms))                                                    \
    X(event_p10_us, num_if(measured(r), event(r)->p10 * us_per_ms))                                                    \
    X(event_p90_us, num_if(measured(r), event(r)->p90 * us_per_ms))                                                    \
    X(event_rel_stdev, num_if(measured(r), event(r)->rel_stdev))                                                       \
    X(wall_median_us, num_if(measured(r), wall(r)->median * us_per_ms))                                                \
    X(wall_mean_us, num_if(measured(r), wall(r)->mean * us_per_ms))                                                    \
    X(wall_p10_us, num_if(measured(r), wall(r)->p10 * us_per_ms))                                                      \
    X(wall_p90_us, num_if(measured(r), wall(r)->p90 * us_per_ms))                                                      \
    X(wall_rel_stdev, num_if(measured(r), wall(r)->rel_stdev))                                                         \
    X(tflops_event_median, tflops(r, event(r)->median))                                                                \
    X(tflops_wall_median, tflops(r, wall(r)->median))

/* The candidate over this participant: baselines' rows of a timed
 * configuration (the candidate has no speedup over itself). */
#define SPEEDUP_COLUMNS(X)                                                                                             \
    X(speedup_geomean, num_if(timed_baseline(r), speedup(r)->geomean))                                                 \
    X(speedup_ci95_low, num_if(timed_baseline(r), speedup(r)->ci95_low))                                               \
    X(speedup_ci95_high, num_if(timed_baseline(r), speedup(r)->ci95_high))                                             \
    X(speedup_paper, num_if(timed_baseline(r), speedup(r)->paper))                                                     \
    X(speedup_ratio_of_means, num_if(timed_baseline(r), speedup(r)->ratio_of_means))                                   \
    X(speedup_median, num_if(timed_baseline(r), speedup(r)->median))                                                   \
    X(speedup_p10, num_if(timed_baseline(r), speedup(r)->p10))                                                         \
    X(speedup_p90, num_if(timed_baseline(r), speedup(r)->p90))                                                         \
    X(speedup_pairs, num_if(timed_baseline(r), (double)speedup(r)->n))                                                 \
    X(speedup_geomean_wall, num_if(timed_baseline(r), part(r)->speedup_wall.geomean))                                  \
    X(speedup_paper_wall, num_if(timed_baseline(r), part(r)->speedup_wall.paper))

/* What the correctness battery did: it checks the candidate, so only its row
 * says, and each check only when it ran. */
#define BATTERY_COLUMNS(X)                                                                                             \
    X(exact_binary_reps, num_if(binary_ran(r), exact_binary(r)->reps))                                                 \
    X(exact_binary_compared, num_if(binary_ran(r), (double)exact_binary(r)->compared))                                 \
    X(exact_signed_reps, num_if(signed_ran(r), exact_signed(r)->reps))                                                 \
    X(exact_signed_compared, num_if(signed_ran(r), (double)exact_signed(r)->compared))                                 \
    X(spot_checks, num_if(candidate(r) && measured(r), cfg(r)->spot_checks))                                           \
    X(deviation_rule, text_if(dev_ran(r), hb_deviation_rule_name((hb_deviation_rule)dev(r)->rule)))                    \
    X(deviation_checks, num_if(dev_ran(r), dev(r)->checks))                                                            \
    X(excess_ratio, num_if(dev_ran(r), dev(r)->worst_ratio))                                                           \
    X(excess_tolerance, num_if(dev_ran(r), dev(r)->tolerance))                                                         \
    X(excess_analytic_tolerance, num_if(dev_ran(r), dev(r)->analytic_tolerance))                                       \
    X(excess_baseline, num_if(dev_ran(r), dev(r)->baseline_excess))                                                    \
    X(paper_rule, text_if(dev_ran(r), dev(r)->paper_failures ? "fail" : "pass"))                                       \
    X(paper_failures, num_if(dev_ran(r), dev(r)->paper_failures))                                                      \
    X(paper_ratio, num_if(dev_ran(r), dev(r)->paper_worst_ratio))                                                      \
    X(check_seconds, num_if(binary_ran(r), battery(r)->seconds_before + battery(r)->seconds_after))                    \
    X(config_seconds, num_if(candidate(r), cfg(r)->seconds))

/* A -max row names the row whose figures it copies; "" elsewhere. */
#define MAX_ROW_COLUMNS(X) X(max_of, text(part(r)->max_of))

/* cuBLASLt baselines: the algorithm as cublasLtMatmulAlgoConfigGetAttribute
 * reports it, and how it was chosen; empty in every other row. */
#define ALGORITHM_COLUMNS(X)                                                                                           \
    X(algo_id, num_if(algo(r)->known, algo(r)->id))                                                                    \
    X(algo_tile, text_if(algo(r)->known, algo(r)->tile))                                                               \
    X(algo_stages, text_if(algo(r)->known, algo(r)->stages))                                                           \
    X(algo_splitk, num_if(algo(r)->known, algo(r)->splitk))                                                            \
    X(algo_reduction, text_if(algo(r)->known, algo(r)->reduction))                                                     \
    X(algo_swizzle, num_if(algo(r)->known, algo(r)->swizzle))                                                          \
    X(algo_custom, num_if(algo(r)->known, algo(r)->custom))                                                            \
    X(algo_inner_shape, text_if(algo(r)->known, algo(r)->inner))                                                       \
    X(algo_cluster_shape, text_if(algo(r)->known, algo(r)->cluster))                                                   \
    X(algo_workspace_bytes, num_if(algo(r)->known, (double)algo(r)->needed_workspace_bytes))                           \
    X(algo_source, text_if(algo(r)->known, algo(r)->source))                                                           \
    X(algo_rank, num_if(algo(r)->known && algo(r)->rank >= 0, algo(r)->rank))                                          \
    X(heuristic_results, num_if(algo(r)->known, algo(r)->heuristic_results))                                           \
    X(autotune_search_s, num_if(algo(r)->known && hb_algo_from_search(algo(r)), algo(r)->search_s))                    \
    X(autotune_median_us, num_if(algo(r)->known && hb_algo_from_search(algo(r)), algo(r)->search_median_us))           \
    X(baseline_setup_s, num_if(algo(r)->known, algo(r)->setup_s))

/* The run's timing policy, on every row so a row stands on its own, and the
 * make-up of the headline's CI (baselines' rows, as the speedups). */
#define POLICY_COLUMNS(X)                                                                                              \
    X(mode, text(hb_mode_name(timing(r)->mode)))                                                                       \
    X(gap, text(hb_gap_name(timing(r)->mode, timing(r)->gap)))                                                         \
    X(mean_gap_ms, num_if(server(r), timing(r)->mean_gap_ms))                                                          \
    X(l2_policy, text(hb_l2_policy_name(timing(r)->l2)))                                                               \
    X(aa_of, text(timing(r)->aa_of))                                                                                   \
    X(speedup_ci95_halfwidth, num_if(timed_baseline(r), speedup(r)->ci95_halfwidth))                                   \
    X(bootstrap_block, num_if(timed_baseline(r), (double)speedup(r)->bootstrap_block))

/* What the warm-up and timed windows did: once per configuration, so on the
 * candidate's row of a timed one; the stopping and pacing figures only when
 * --target-ci or server mode made them. */
#define WINDOW_COLUMNS(X)                                                                                              \
    X(warmup_rounds, num_if(timed_candidate(r), (double)window(r)->warmup_rounds))                                     \
    X(timed_s, num_if(timed_candidate(r), window(r)->timed_s))                                                         \
    X(stopped_by, text_if(timed_candidate(r), window(r)->stopped_by))                                                  \
    X(target_ci, num_if(timed_candidate(r) && target_ci(r), timing(r)->target_ci))                                     \
    X(final_ci_halfwidth, num_if(timed_candidate(r) && target_ci(r), window(r)->final_halfwidth))                      \
    X(gaps, num_if(timed_candidate(r) && server(r), (double)window(r)->gaps))                                          \
    X(gap_mean_ms, num_if(timed_candidate(r) && server(r), window(r)->gap_mean_ms))                                    \
    X(gap_fraction, num_if(timed_candidate(r) && server(r), window(r)->gap_fraction))                                  \
    X(achieved_rate_per_s, num_if(timed_candidate(r) && server(r), window(r)->achieved_rate_per_s))

/* NVML through the timed window, on the candidate's row of a timed
 * configuration: "nvml" or why there is none, then each reading it made. */
#define TELEMETRY_COLUMNS(X)                                                                                           \
    X(telemetry, text_if(timed_candidate(r), tel(r)->available ? "nvml" : tel(r)->why))                                \
    X(telemetry_samples, num_if(telemetry_on(r), (double)tel(r)->samples))                                             \
    X(sm_clock_min_mhz, reading(r, tel(r)->sm_min_mhz))                                                                \
    X(sm_clock_mean_mhz, reading(r, tel(r)->sm_mean_mhz))                                                              \
    X(sm_clock_max_mhz, reading(r, tel(r)->sm_max_mhz))                                                                \
    X(sm_clock_min_busy_mhz, reading(r, tel(r)->sm_min_busy_mhz))                                                      \
    X(sm_clock_device_max_mhz, reading(r, tel(r)->sm_device_max_mhz))                                                  \
    X(mem_clock_mean_mhz, reading(r, tel(r)->mem_mean_mhz))                                                            \
    X(temp_max_c, reading(r, tel(r)->temp_max_c))                                                                      \
    X(power_mean_w, reading(r, tel(r)->power_mean_w))                                                                  \
    X(power_max_w, reading(r, tel(r)->power_max_w))                                                                    \
    X(throttle_reasons, throttle_reasons(r))                                                                           \
    X(clock_warning, clock_warning(r))

/* What the candidate's cubin can keep between calls (bench/result/module_state.h),
 * on its row once the cubin was read; and its time against the GPU's peak
 * (bench/result/plausibility.h) once a passing configuration was timed. */
#define INTEGRITY_COLUMNS(X)                                                                                           \
    X(module_global_bytes, num_if(module_scanned(r), (double)module(r)->global_bytes))                                 \
    X(device_malloc, num_if(module_scanned(r), module(r)->device_malloc))                                              \
    X(peak_tflops, num_if(peak_known(r), plaus(r)->peak_tflops))                                                       \
    X(peak_clock_mhz, num_if(peak_clocked(r), plaus(r)->clock_mhz))                                                    \
    X(peak_source, text_if(peak_judged(r), hb_peak_source_name(plaus(r)->source)))                                     \
    X(peak_clock_source, text_if(peak_clocked(r), plaus(r)->clock_source))

/* Which GPU the configuration ran on: a sweep spreads its configurations
 * over several (docs/sweeps.md); empty where it never reached one. */
#define PLACEMENT_COLUMNS(X)                                                                                           \
    X(device, num_if(cfg(r)->gpu.ordinal >= 0, cfg(r)->gpu.ordinal))                                                  \
    X(gpu_uuid, text_if(cfg(r)->gpu.ordinal >= 0, cfg(r)->gpu.uuid))                                                  \
    X(gpu_name, text_if(cfg(r)->gpu.ordinal >= 0, cfg(r)->gpu.name))

/* The call monitor (docs/results.md, "Kernel time and conduct"): the timed
 * stream, every participant's kernel-only time in microseconds (medians over
 * its timed calls; over the calls after the first when untimed), the
 * speedup on it in baseline rows, and the candidate's conduct.  Empty where
 * no monitor ran (trace_note says why). */
#define TRACE_COLUMNS(X)                                                                                               \
    X(stream, text(hb_stream_policy_name(timing(r)->stream)))                                                          \
    X(kernel_us, num_if(traced(r), kern(r)->span_us))                                                                  \
    X(kernel_sum_us, num_if(traced(r), kern(r)->sum_us))                                                               \
    X(kernel_first_us, num_if(traced(r), kern(r)->first_span_us))                                                      \
    X(traced_wall_us, num_if(traced(r), kern(r)->wall_us))                                                             \
    X(host_us, num_if(traced(r), kern(r)->host_us))                                                                    \
    X(kernels_per_call, num_if(traced(r), kern(r)->kernels_per_call))                                                  \
    X(first_call_kernels, num_if(traced(r), kern(r)->first_call_kernels))                                              \
    X(speedup_kernel, num_if(!candidate(r), hb_kernel_speedup(cfg(r), part(r))))                                       \
    X(conduct, conduct_cell(r, 0))                                                                                     \
    X(conduct_detail, conduct_cell(r, 1))                                                                              \
    X(trace_note, text_if(candidate(r), cfg(r)->trace_note))

/* Which timer the headline (speedup_geomean and the columns beside it) is
 * on and why (docs/results.md, "Which timer decided"), the event headline
 * beside it, the kernel time's spread, and each participant's events
 * against CUPTI's device timestamps of the same events and the wall clock. */
#define TIMER_COLUMNS(X)                                                                                               \
    X(headline_timer, text_if(measured(r), hb_timer_name(cfg(r)->headline_timer)))                                     \
    X(timer_reason, timer_reasons(r))                                                                                  \
    X(timer_detail, text_if(timed_candidate(r), cfg(r)->timer_why))                                                    \
    X(speedup_geomean_event, num_if(timed_baseline(r), speedup_event(r)->geomean))                                     \
    X(speedup_paper_event, num_if(timed_baseline(r), speedup_event(r)->paper))                                         \
    X(kernel_p10_us, num_if(traced(r), kern(r)->span_p10_us))                                                          \
    X(kernel_p90_us, num_if(traced(r), kern(r)->span_p90_us))                                                          \
    X(kernel_calls, num_if(traced(r), kern(r)->calls))                                                                 \
    X(event_device_calls, num_if(timer_compared(r), timers(r)->compared))                                              \
    X(event_device_beyond, num_if(timer_compared(r), timers(r)->beyond))                                               \
    X(event_device_max_diff_us, num_if(timer_compared(r), timers(r)->max_diff_us))                                     \
    X(event_device_median_diff_us, num_if(timer_compared(r), timers(r)->median_diff_us))                               \
    X(event_above_wall_calls, num_if(measured(r), timers(r)->above_wall))                                              \
    X(host_gap_us, num_if(measured(r), timers(r)->host_gap_us))

/* What the candidate's file holds (docs/validation.md, "Accumulator audit":
 * its tensor-core instructions by accumulator, bench/result/mma_audit.h) and
 * what each --sanitize tool found ("memcheck=0;racecheck=18"). */
#define AUDIT_COLUMNS(X)                                                                                               \
    X(mma_accumulators, mma_cell(r))                                                                                   \
    X(sanitize, sanitize_cell(r))

/* --reward (docs/gate.md, "Reward"): on the candidate's row of a
 * configuration that earned one, r, its speed term (clipped, with
 * --reward-clip), its diff term before alpha, and L; empty otherwise. */
#define REWARD_COLUMNS(X)                                                                                              \
    X(reward, num_if(rewarded(r), cfg(r)->reward.r))                                                                   \
    X(reward_speed, num_if(rewarded(r), cfg(r)->reward.speed_term))                                                    \
    X(reward_diff, num_if(rewarded(r), cfg(r)->reward.diff_mean))                                                      \
    X(reward_length_bytes, num_if(rewarded(r) && cfg(r)->reward.length_bytes >= 0, (double)cfg(r)->reward.length_bytes))

/* --profile's Nsight Compute figures (docs/gate.md, "Profile"), in the rows
 * of the participants it profiled (the candidate and the --vs baseline): of
 * each one's kernel of most GPU time, percentages; empty where it profiled
 * none, profile_note (the candidate's row) then saying why. */
#define PROFILE_COLUMNS(X)                                                                                             \
    X(profile_kernel, profile_kernel(r))                                                                               \
    X(profile_dram_pct, profile_value(r, HB_PROFILE_DRAM_PCT))                                                         \
    X(profile_sm_pct, profile_value(r, HB_PROFILE_SM_PCT))                                                             \
    X(profile_tensor_pct, profile_value(r, HB_PROFILE_TENSOR_PCT))                                                     \
    X(profile_occupancy_pct, profile_value(r, HB_PROFILE_OCCUPANCY_PCT))                                               \
    X(profile_l2_hit_pct, profile_value(r, HB_PROFILE_L2_HIT_PCT))                                                     \
    X(profile_note, text_if(candidate(r), cfg(r)->profile.note))

/* Every page of code checked (docs/methodology.md, "Every page of code
 * checked"), on the candidate's row of a configuration whose code was
 * sealed: the bytes hashed at the seal and at each check, the seal's time,
 * the checks and their time summed, milliseconds. */
#define CODE_COLUMNS(X)                                                                                                \
    X(code_bytes, num_if(code_sealed(r), (double)cfg(r)->code_pages.bytes))                                            \
    X(code_seal_ms, num_if(code_sealed(r), cfg(r)->code_pages.seal_ms))                                                \
    X(code_checks, num_if(code_sealed(r), cfg(r)->code_pages.checks))                                                  \
    X(code_check_ms, num_if(code_sealed(r), cfg(r)->code_pages.check_ms))
/* The baselines held to a clean process (docs/methodology.md, "Baselines
 * held to a clean process"): on the candidate's row, where the reference
 * came from (measured, cached, off, or none and why) and, once judged, the
 * largest ratio of a baseline's median to its clean process's and whose it
 * was ("torch wall"); on a baseline's row, its clean process's medians. */
#define REFERENCE_COLUMNS(X)                                                                                           \
    X(baseline_reference, reference_cell(r))                                                                           \
    X(baseline_reference_ratio, num_if(ref_judged(r), ref(r)->worst_ratio))                                            \
    X(baseline_reference_worst, text_if(ref_judged(r), ref(r)->worst))                                                 \
    X(reference_event_median_us, num_if(ref_held(r), part(r)->reference.median_us[HB_REF_EVENT]))                      \
    X(reference_wall_median_us, num_if(ref_held(r), part(r)->reference.median_us[HB_REF_WALL]))                        \
    X(reference_kernel_median_us, num_if(ref_held(r), part(r)->reference.median_us[HB_REF_KERNEL]))
/* The timed window's cross-check (docs/results.md, "Which timer decided";
 * bench/result/cross_check.h), on the candidate's row of a timed
 * configuration: the timed rounds CUPTI also read the event pairs of (left
 * out of `samples`; 0 with --cross-check-rounds 0 or no call monitor), and,
 * where CUPTI read the candidate's, its median event - CUPTI's reading over
 * them, the same against the baselines of each round, and the paired sign
 * test's p-value. */
#define CROSS_CHECK_COLUMNS(X)                                                                                         \
    X(cross_checked_rounds, num_if(timed_candidate(r), (double)window(r)->cross_checked_rounds))                       \
    X(cross_check_median_diff_us, num_if(timed_candidate(r) && cross(r)->compared > 0, cross(r)->median_diff_us))      \
    X(cross_check_paired_median_us, num_if(timed_candidate(r) && cross(r)->paired > 0, cross(r)->paired_median_us))    \
    X(cross_check_sign_p, num_if(timed_candidate(r) && cross(r)->paired > 0, cross(r)->p_value))

/* The sandbox the evaluating process applied before the candidate's library
 * loaded (docs/methodology.md, "The sandbox"): "mseal+seccomp+landlock7",
 * "seccomp+landlock7" (no mseal), "off", "none (--no-isolate)"; on the
 * candidate's row, empty where the process ended before it. */
#define SANDBOX_COLUMNS(X) X(sandbox, text_if(candidate(r), cfg(r)->sandbox))

/* The candidate's form (docs/launchers.md, "The replay form"): cubin, a
 * launcher's replay, or its own host code ("" before a candidate loaded);
 * for a launcher recorded under --form replay, why it has no replay (its
 * refusal class and words, "" when it has one) and what the replay is: its
 * steady state's kernels and operations per call, the first call's
 * operations issued once, the allocations and TMA descriptors it remakes,
 * and the recording's wall time in seconds. */
#define FORM_COLUMNS(X)                                                                                                \
    X(form, text_if(candidate(r), hb_candidate_form_name(replay(r)->form)))                                           \
    X(replay_refusal, text_if(recorded(r), hb_replay_refusal_name(replay(r)->refusal)))                                \
    X(replay_reason, text_if(recorded(r), replay(r)->reason))                                                          \
    X(replay_kernels, num_if(replayed(r), replay(r)->kernels_per_call))                                                \
    X(replay_ops, num_if(replayed(r), replay(r)->ops_per_call))                                                        \
    X(replay_prologue_ops, num_if(replayed(r), replay(r)->prologue_ops))                                               \
    X(replay_allocs, num_if(replayed(r), replay(r)->allocs))                                                           \
    X(replay_maps, num_if(replayed(r), replay(r)->maps))                                                               \
    X(replay_record_s, num_if(recorded(r), replay(r)->record_s))

/* New columns go at the end of the last group (or in a new group after it). */
#define SUMMARY_COLUMNS(X)                                                                                             \
    IDENTITY_COLUMNS(X) VERDICT_COLUMNS(X) DESCRIPTION_COLUMNS(X) CHECK_COLUMNS(X) TIME_COLUMNS(X)                     \
    SPEEDUP_COLUMNS(X) BATTERY_COLUMNS(X) MAX_ROW_COLUMNS(X) ALGORITHM_COLUMNS(X) POLICY_COLUMNS(X)                    \
    WINDOW_COLUMNS(X) TELEMETRY_COLUMNS(X) INTEGRITY_COLUMNS(X) PLACEMENT_COLUMNS(X) TRACE_COLUMNS(X)                  \
    TIMER_COLUMNS(X) AUDIT_COLUMNS(X) REWARD_COLUMNS(X) PROFILE_COLUMNS(X) CODE_COLUMNS(X) REFERENCE_COLUMNS(X)      \
    CROSS_CHECK_COLUMNS(X) SANDBOX_COLUMNS(X) FORM_COLUMNS(X)

/* --- the table --------------------------------------------------------------------- */

#define VALUE_FUNCTION(name, value)                                                                                    \
    static hb_cell value_##name(const hb_row *r)                                                                       \
    {                                                                                                                  \
        return value;                                                                                                  \
    }
SUMMARY_COLUMNS(VALUE_FUNCTION)

#define TABLE_ENTRY(name, value) {#name, value_##name},
static const hb_column columns[] = {SUMMARY_COLUMNS(TABLE_ENTRY)};

size_t hb_summary_column_count(void)
{
    return sizeof columns / sizeof columns[0];
}

const hb_column *hb_summary_column(size_t index)
{
    return index < hb_summary_column_count() ? &columns[index] : NULL;
}

const hb_column *hb_summary_column_find(const char *name)
{
    for (size_t i = 0; name && i < hb_summary_column_count(); i++)
        if (!strcmp(columns[i].name, name))
            return &columns[i];
    return NULL;
}
