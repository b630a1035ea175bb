#include "bench/report/verdict_file.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/json_file.h"
#include "bench/core/signal_name.h"
#include "bench/report/json_values.h"
#include "bench/report/profile_json.h"
#include "bench/result/gate.h"
#include "bench/result/plausibility.h"
#include "bench/result/run_verdict.h"

static json_t *exact_object(const hb_exact_record *e)
{
    json_t *o = json_object();
    json_object_set_new(o, "ran", json_boolean(e->ran));
    json_object_set_new(o, "reps", json_integer(e->reps));
    json_object_set_new(o, "compared", json_integer((json_int_t)e->compared));
    json_object_set_new(o, "ignored_at_or_above_2048", json_integer((json_int_t)e->ignored));
    return o;
}

/* Every deviation check of the configuration (before timing, spot, post):
 * the deciding rule and the worst figures of both rules. */
static json_t *deviation_object(const hb_deviation_record *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "rule", json_string(hb_deviation_rule_name((hb_deviation_rule)d->rule)));
    json_object_set_new(o, "checks", json_integer(d->checks));
    json_object_set_new(o, "excess_ratio", hb_json_number(d->checks ? d->worst_ratio : NAN));
    json_object_set_new(o, "excess_tolerance", hb_json_number(d->checks ? d->tolerance : NAN));
    json_object_set_new(o, "paper_rule", json_string(!d->checks ? "not run" : d->paper_failures ? "fail" : "pass"));
    json_object_set_new(o, "paper_failures", json_integer(d->paper_failures));
    json_object_set_new(o, "paper_ratio", hb_json_number(d->checks ? d->paper_worst_ratio : NAN));
    return o;
}

static json_t *checks_object(const hb_config_result *r)
{
    const hb_battery_record *b = &r->battery;
    json_t *o = json_object();
    json_object_set_new(o, "exact_binary", exact_object(&b->exact_binary));
    json_object_set_new(o, "exact_signed", exact_object(&b->exact_signed));
    json_object_set_new(o, "max_abs_dev", hb_json_number(r->checked ? r->participants[0].deviation.max_abs : NAN));
    json_object_set_new(o, "dev_bound", hb_json_number(r->checked ? r->deviation_bound : NAN));
    json_object_set_new(o, "deviation", deviation_object(&b->deviation));
    json_object_set_new(o, "reference_crosscheck_samples", json_integer(b->crosscheck.samples));
    json_object_set_new(o, "spot_checks", json_integer(r->spot_checks));
    json_object_set_new(o, "post_timing_ran", json_boolean(b->post_ran));
    json_object_set_new(o, "seconds_before_timing", json_real(b->seconds_before));
    json_object_set_new(o, "seconds_after_timing", json_real(b->seconds_after));
    return o;
}

static json_t *speedup_object(const hb_config_result *r, const char *vs)
{
    const hb_participant_result *base = hb_find_participant(r, vs);
    if (!hb_result_has_speedups(r) || !base) /* not timed, or an implausible time */
        return json_null();
    const hb_speedup_summary *s = hb_headline_speedup(r, base);
    json_t *o = json_object();
    json_object_set_new(o, "vs", json_string(vs));
    json_object_set_new(o, "timer", json_string(hb_timer_name(r->headline_timer)));
    json_object_set_new(o, "geomean", hb_json_number(s->geomean));
    json_object_set_new(o, "ci95_low", hb_json_number(s->ci95_low));
    json_object_set_new(o, "ci95_high", hb_json_number(s->ci95_high));
    json_object_set_new(o, "paper", hb_json_number(s->paper));
    json_object_set_new(o, "candidate_median_us", hb_json_number(hb_headline_times(r, &r->participants[0])->median * 1e3));
    json_object_set_new(o, "baseline_median_us", hb_json_number(hb_headline_times(r, base)->median * 1e3));
    json_object_set_new(o, "rounds", json_integer((json_int_t)r->rounds));
    return o;
}

/* gate --decide's verdict on the threshold (docs/gate.md, "A verdict in
 * seconds"); null without --decide or when no look was made. */
static json_t *decision_object(const hb_config_result *r)
{
    const hb_decision_record *d = &r->decision;
    if (!d->ran || d->looks == 0)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "rule", json_string(HB_DECISION_RULE));
    json_object_set_new(o, "vs", hb_json_text(d->vs));
    json_object_set_new(o, "threshold", json_real(d->threshold));
    json_object_set_new(o, "alpha", json_real(d->alpha));
    json_object_set_new(o, "state", json_string(hb_look_state_name(d->last.state)));
    json_object_set_new(o, "timer", json_string(hb_timer_name(d->timer)));
    json_object_set_new(o, "window_state", json_string(hb_look_state_name(d->window_state)));
    json_object_set_new(o, "looks", json_integer((json_int_t)d->looks));
    json_object_set_new(o, "look", json_integer((json_int_t)d->last.look));
    json_object_set_new(o, "look_alpha", json_real(d->last.alpha));
    json_object_set_new(o, "rounds", json_integer((json_int_t)d->last.rounds));
    json_object_set_new(o, "seconds", json_real(d->seconds));
    json_object_set_new(o, "low", hb_json_number(hb_decision_low(d)));
    json_object_set_new(o, "high", hb_json_number(hb_decision_high(d)));
    json_object_set_new(o, "batches", json_integer((json_int_t)d->last.batches));
    return o;
}

/* The call monitor's findings on the candidate, one object per finding, and
 * whether this run's gate forbids it; null when no trace judged it. */
static json_t *conduct_object(const hb_config_result *r, unsigned forbidden)
{
    json_t *o = json_object();
    json_object_set_new(o, "traced", json_boolean(r->conduct.traced));
    json_object_set_new(o, "note", hb_json_text(r->trace_note));
    json_object_set_new(o, "trace_file", hb_json_text(r->trace_file));
    json_t *findings = json_array();
    for (int f = 0; f < HB_N_FINDINGS; f++) {
        if (!(r->conduct.found & HB_FINDING_BIT(f)))
            continue;
        json_t *finding = json_object();
        json_object_set_new(finding, "finding", json_string(hb_finding_name((hb_finding)f)));
        json_object_set_new(finding, "detail", hb_json_text(r->conduct.line[f]));
        json_object_set_new(finding, "forbidden", json_boolean((forbidden & HB_FINDING_BIT(f)) != 0));
        json_array_append_new(findings, finding);
    }
    json_object_set_new(o, "findings", findings);
    return o;
}

/* Kernel-only time (microseconds) of the candidate and of `vs`, and the
 * speedup on it; null when the trace did not time both. */
static json_t *kernel_object(const hb_config_result *r, const char *vs)
{
    const hb_participant_result *base = hb_find_participant(r, vs);
    const hb_kernel_time *c = &r->participants[0].kernel;
    if (!base || !c->traced || !base->kernel.traced)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "vs", json_string(vs));
    json_object_set_new(o, "candidate_kernel_us", hb_json_number(c->span_us));
    json_object_set_new(o, "baseline_kernel_us", hb_json_number(base->kernel.span_us));
    json_object_set_new(o, "speedup", hb_json_number(hb_kernel_speedup(r, base)));
    json_object_set_new(o, "candidate_kernels_per_call", json_integer(c->kernels_per_call));
    json_object_set_new(o, "candidate_host_us", hb_json_number(c->host_us));
    return o;
}

/* Which timer the headline is on and why; each participant's events against
 * CUPTI's device reading and the wall clock. */
static json_t *timers_object(const hb_config_result *r)
{
    if (!r->measured && !r->integrity_checked)
        return json_null();
    json_t *o = json_object(), *reasons = json_array(), *agreement = json_array();
    json_object_set_new(o, "headline", json_string(hb_timer_name(r->headline_timer)));
    for (unsigned bit = 1; bit <= HB_TIMER_REASON_HOST_GAP; bit <<= 1)
        if (r->timer_reasons & bit) {
            char name[40];
            hb_timer_reason_names(bit, name, sizeof name);
            json_array_append_new(reasons, json_string(name));
        }
    json_object_set_new(o, "reasons", reasons);
    json_object_set_new(o, "why", hb_json_text(r->timer_why));
    json_object_set_new(o, "entry_points_checked", json_boolean(r->integrity_checked));
    for (size_t i = 0; r->measured && i < r->count; i++) {
        const hb_participant_result *p = &r->participants[i];
        if (p->max_of[0])
            continue;
        const hb_timer_agreement *a = &p->timers;
        json_array_append_new(agreement,
                              json_pack("{s:s, s:i, s:i, s:o, s:o, s:i, s:o}", "participant", p->name, "compared",
                                        a->compared, "beyond", a->beyond, "max_diff_us", hb_json_number(a->max_diff_us),
                                        "median_diff_us", hb_json_number(a->median_diff_us), "above_wall", a->above_wall,
                                        "host_gap_us", hb_json_number(a->host_gap_us)));
    }
    json_object_set_new(o, "agreement", agreement);
    return o;
}

/* The accumulator audit's cell (bench/result/mma_audit.h); null when the candidate's file was not audited. */
static json_t *mma_value(const hb_config_result *r)
{
    if (!r->mma_audited)
        return json_null();
    char cell[HB_MMA_CELL];
    hb_mma_audit_format(&r->mma, cell, sizeof cell);
    return json_string(cell);
}

/* {"memcheck": 0, "racecheck": 18}: the errors each --sanitize tool counted in the candidate's kernels (and
 * "racecheck_in_library_kernels": N where it reported some in cuBLAS's); null when none ran. */
static json_t *sanitize_object(const hb_sanitize_record *s)
{
    if (!s->ran)
        return json_null();
    json_t *o = json_object();
    for (int t = 0; t < HB_N_SANITIZER_TOOLS; t++)
        if (s->ran & HB_SANITIZE_BIT(t)) {
            const char *name = hb_sanitizer_tool_name((hb_sanitizer_tool)t);
            json_object_set_new(o, name, json_integer(s->errors[t]));
            if (s->library_errors[t] > 0) { /* the baselines' kernels: reported, not held against the candidate */
                char key[64];
                snprintf(key, sizeof key, "%s_in_library_kernels", name);
                json_object_set_new(o, key, json_integer(s->library_errors[t]));
            }
        }
    return o;
}

/* The reward and every term of it (docs/gate.md, "Reward"); null when
 * --reward is off or the configuration earned none. */
static json_t *reward_object(const hb_reward_record *w)
{
    if (!w->earned)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "r", hb_json_number(w->r));
    json_object_set_new(o, "alpha", json_real(w->alpha));
    json_object_set_new(o, "beta", json_real(w->beta));
    json_object_set_new(o, "vs", json_string(w->vs));
    json_object_set_new(o, "vs_participant", json_string(w->vs_participant));
    json_object_set_new(o, "timer", json_string(w->timer));
    json_object_set_new(o, "rounds", json_integer((json_int_t)w->rounds));
    json_object_set_new(o, "speed_term", hb_json_number(w->speed_term));
    json_object_set_new(o, "speed_term_unclipped", hb_json_number(w->speed_term_unclipped));
    json_object_set_new(o, "clip", w->clip ? json_pack("[f,f]", w->clip_low, w->clip_high) : json_null());
    json_object_set_new(o, "clipped_rounds", json_integer((json_int_t)w->clipped_rounds));
    json_object_set_new(o, "diff_mean", hb_json_number(w->diff_mean));
    json_object_set_new(o, "diff_max", hb_json_number(w->diff_max));
    json_object_set_new(o, "diff_checks", json_integer(w->diff_checks));
    json_object_set_new(o, "length_bytes", w->length_bytes >= 0 ? json_integer(w->length_bytes) : json_null());
    json_object_set_new(o, "source", w->source[0] ? hb_json_text(w->source) : json_null());
    return o;
}

/* The baselines' clean-process reference: where it came from and what the
 * judgement in the candidate's process found (docs/methodology.md,
 * "Baselines held to a clean process"). */
static json_t *reference_object(const hb_reference_record *ref)
{
    json_t *o = json_object();
    json_object_set_new(o, "source", json_string(hb_ref_source_name(ref->source)));
    json_object_set_new(o, "why", ref->source == HB_REF_NONE ? hb_json_text(ref->why) : json_null());
    json_object_set_new(o, "seconds", ref->source == HB_REF_MEASURED ? hb_json_number(ref->seconds) : json_null());
    json_object_set_new(o, "judged", json_boolean(ref->judged));
    json_object_set_new(o, "held", json_integer(ref->held));
    json_object_set_new(o, "worst_ratio", ref->judged ? hb_json_number(ref->worst_ratio) : json_null());
    json_object_set_new(o, "worst", ref->judged ? hb_json_text(ref->worst) : json_null());
    json_object_set_new(o, "not_held", hb_json_text(ref->not_held));
    return o;
}

/* A count of the replay, null where the launcher has none. */
static json_t *replay_count(const hb_replay_record *p, unsigned value)
{
    return p->refusal == HB_REFUSE_NONE ? json_integer(value) : json_null();
}

/* A launcher's recording under --form replay (docs/launchers.md, "The
 * replay form"): why it has no replay, or what its replay holds and where it
 * is; null where nothing was recorded (a cubin, --form launcher, --aa). */
static json_t *replay_object(const hb_replay_record *p)
{
    if (!p->recorded)
        return json_null();
    json_t *o = json_object();
    int has = p->refusal == HB_REFUSE_NONE;
    json_object_set_new(o, "refusal", has ? json_null() : json_string(hb_replay_refusal_name(p->refusal)));
    json_object_set_new(o, "reason", has ? json_null() : hb_json_text(p->reason));
    json_object_set_new(o, "kernels_per_call", replay_count(p, p->kernels_per_call));
    json_object_set_new(o, "ops_per_call", replay_count(p, p->ops_per_call));
    json_object_set_new(o, "prologue_ops", replay_count(p, p->prologue_ops));
    json_object_set_new(o, "allocs", replay_count(p, p->allocs));
    json_object_set_new(o, "maps", replay_count(p, p->maps));
    json_object_set_new(o, "record_s", hb_json_number(p->record_s));
    json_object_set_new(o, "folder", has && p->folder[0] ? hb_json_text(p->folder) : json_null());
    return o;
}

json_t *hb_verdict_config_json(const hb_config_result *r, const char *vs, unsigned forbidden)
{
    json_t *o = json_object();
    json_object_set_new(o, "mnk", json_pack("[I,I,I]", (json_int_t)r->mnk.m, (json_int_t)r->mnk.n,
                                            (json_int_t)r->mnk.k));
    json_object_set_new(o, "verdict", json_string(hb_verdict_name(r->verdict)));
    json_object_set_new(o, "check", hb_json_text(r->check));
    json_object_set_new(o, "reason", hb_json_text(r->reason));
    json_object_set_new(o, "manifest", hb_json_text(r->manifest_path));
    json_object_set_new(o, "form", hb_json_text(hb_candidate_form_name(r->replay.form)));
    json_object_set_new(o, "replay", replay_object(&r->replay));
    json_object_set_new(o, "checks", checks_object(r));
    json_object_set_new(o, "speedup", speedup_object(r, vs));
    json_object_set_new(o, "decision", decision_object(r));
    json_object_set_new(o, "timers", timers_object(r));
    json_object_set_new(o, "sandbox", hb_json_text(r->sandbox));
    json_object_set_new(o, "kernel_time", kernel_object(r, vs));
    json_object_set_new(o, "conduct", conduct_object(r, forbidden));
    json_object_set_new(o, "mma_accumulators", mma_value(r));
    json_object_set_new(o, "sanitize", sanitize_object(&r->sanitize));
    json_object_set_new(o, "reward", reward_object(&r->reward));
    if (r->reward.requested) /* why none was earned; null when one was */
        json_object_set_new(o, "reward_note", r->reward.earned ? json_null() : hb_json_text(r->reward.note));
    json_object_set_new(o, "profile", hb_profile_json(&r->profile));
    json_object_set_new(o, "profile_note", hb_json_text(r->profile.note));
    json_object_set_new(o, "baseline_reference", reference_object(&r->baseline_reference));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    return o;
}

/* The configurations never evaluated: [[M, N, K], ...], [] when every one was. */
static json_t *not_run_array(const hb_run_outcome *v)
{
    json_t *list = json_array();
    for (size_t i = 0; i < v->not_run_count; i++)
        json_array_append_new(list, json_pack("[I,I,I]", (json_int_t)v->not_run[i].m, (json_int_t)v->not_run[i].n,
                                              (json_int_t)v->not_run[i].k));
    return list;
}

hb_status hb_verdict_file_write(const char *path, const hb_run_record *run, const hb_run_outcome *v)
{
    const hb_run_options *o = run->options;
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("hgemm-bench-verdict/1"));
    json_object_set_new(root, "command", json_string(run->command));
    char reason[160];
    json_object_set_new(root, "verdict", json_string(hb_outcome_verdict(v)));
    json_object_set_new(root, "exit_code", json_integer(v->status));
    json_object_set_new(root, "reason", hb_json_text(hb_outcome_reason(v, reason, sizeof reason)));
    json_object_set_new(root, "interrupted", json_boolean(v->interrupted_by != 0));
    json_object_set_new(root, "signal", v->interrupted_by ? json_string(hb_signal_name(v->interrupted_by)) : json_null());
    json_object_set_new(root, "candidate", hb_json_text(hb_candidate_label(o)));
    json_object_set_new(root, "run_id", json_string(run->run_id));
    json_object_set_new(root, "results_dir", hb_json_text(run->run_path));
    json_object_set_new(root, "vs", json_string(o->vs));
    json_object_set_new(root, "min_speedup", o->gate ? json_real(o->min_speedup) : json_null());
    json_object_set_new(root, "statistic", json_string("geometric mean of paired per-round ratios t_base/t_cand, minus 1; on CUDA events, or on "
                                             "the wall clock where a configuration's events may miss work (each "
                                             "configuration's speedup.timer says which)"));
    json_object_set_new(root, "decide_alpha", o->gate && o->decide ? json_real(o->decide_alpha) : json_null());
    const unsigned forbidden = o->gate ? hb_gate_forbidden_findings(o->strict, o->forbid) : 0;
    char forbidden_names[200];
    hb_finding_names(forbidden, forbidden_names, sizeof forbidden_names);
    json_object_set_new(root, "forbidden_conduct", json_string(forbidden_names));
    json_object_set_new(root, "stream", json_string(hb_stream_policy_name(o->stream)));
    json_t *configs = json_array();
    for (size_t i = 0; i < v->count; i++)
        json_array_append_new(configs, hb_verdict_config_json(&v->results[i], o->vs, forbidden));
    json_object_set_new(root, "configs", configs);
    json_object_set_new(root, "not_run", not_run_array(v));
    hb_status status = hb_json_write_file(path, root);
    json_decref(root);
    return status;
}

/* The sink: verdict.json in the run folder, and a copy where --verdict says,
 * once the run has ended. */
static hb_status verdict_end(hb_sink *self, const hb_run_record *run, const hb_run_outcome *outcome)
{
    const char *extra_path = self->state;
    char path[4200];
    snprintf(path, sizeof path, "%s/verdict.json", run->run_path);
    HB_TRY(hb_verdict_file_write(path, run, outcome));
    return extra_path ? hb_verdict_file_write(extra_path, run, outcome) : HB_OK;
}

static const hb_sink_ops verdict_ops = {.name = "verdict.json", .end = verdict_end};

hb_sink hb_verdict_sink(const char *extra_path)
{
    hb_sink sink = {&verdict_ops, (void *)extra_path};
    return sink;
}
