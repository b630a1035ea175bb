#include "bench/report/env_json.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/json_file.h"
#include "bench/core/stats.h"
#include "bench/core/version.h"
#include "bench/report/json_values.h"
#include "bench/result/module_state.h"
#include "bench/result/sanitize_record.h"
#include "bench/result/peak_throughput.h"

/* cuBLAS / cuBLASLt versions: major*10000 + minor*100 + patch. */
static json_t *library_version(long encoded)
{
    char text[32];
    snprintf(text, sizeof text, "%ld.%ld.%ld", encoded / 10000, (encoded / 100) % 100, encoded % 100);
    return json_string(text);
}

static json_t *version_string(int encoded, int major_div, int minor_div, int minor_mod)
{
    char text[32];
    snprintf(text, sizeof text, "%d.%d", encoded / major_div, (encoded / minor_div) % minor_mod);
    return json_string(text);
}

static json_t *nvml_clocks(const hb_device_info *d)
{
    json_t *clocks = json_pack("{s:s, s:i, s:i, s:s}", "source_of_max", "cudaDeviceGetAttribute", "sm_max_mhz",
                               d->max_sm_clock_mhz, "mem_max_mhz", d->max_mem_clock_mhz, "nvml_status", d->nvml_status);
    if (clocks && d->nvml_sm_clock_mhz >= 0) /* readings only where NVML gave them */
        json_object_update_new(clocks, json_pack("{s:i, s:i, s:i, s:i}", "nvml_sm_mhz_at_start", d->nvml_sm_clock_mhz,
                                             "nvml_mem_mhz_at_start", d->nvml_mem_clock_mhz, "nvml_sm_max_mhz",
                                             d->nvml_max_sm_clock_mhz, "nvml_temperature_c_at_start",
                                             d->nvml_temperature_c));
    return clocks;
}

/* NULL: the GPU was never opened (no configuration passed the checks before it). */
static json_t *gpu_object(const hb_device_info *d)
{
    if (!d)
        return json_null();
    char sm[16];
    snprintf(sm, sizeof sm, "sm_%d", d->sm);
    return json_pack("{s:i, s:s, s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:o}", "ordinal", d->ordinal, "name", d->name,
                     "uuid", d->uuid, "pci_bus_id", d->pci_bus_id, "architecture", sm, "sm_count", d->sm_count,
                     "l2_bytes", (json_int_t)d->l2_bytes, "global_memory_bytes", (json_int_t)d->global_mem_bytes,
                     "shared_memory_per_block_optin_bytes", (json_int_t)d->smem_per_block_optin, "clocks",
                     nvml_clocks(d));
}

static json_t *software_object(const hb_device_info *d)
{
    json_t *sw = json_object();

    /* Without an opened GPU the versions were never read: null, the keys kept. */
    json_object_set_new(sw, "cuda_driver", d ? version_string(d->driver_version, 1000, 10, 100) : json_null());
    json_object_set_new(sw, "cuda_runtime", d ? version_string(d->runtime_version, 1000, 10, 100) : json_null());
    json_object_set_new(sw, "cublas", d ? library_version(d->cublas_version) : json_null());
    json_object_set_new(sw, "cublaslt", d ? library_version(d->cublaslt_version) : json_null());
    json_object_set_new(sw, "nvidia_driver", d ? json_string(d->driver) : json_null());
    json_object_set_new(sw, "harness_commit", json_string(hb_harness_commit()));
    return sw;
}

static json_t *autotune_object(const hb_run_options *o, const hb_engine_facts *e)
{
    json_t *a = json_object();
    json_object_set_new(a, "cache", o->autotune_cache ? hb_json_text(o->autotune_cache) : json_null());
    json_object_set_new(a, "retune", json_boolean(o->retune));
    json_object_set_new(a, "search", json_boolean(o->autotune_search));
    json_object_set_new(a, "max_candidates", json_integer(e->autotune_max_candidates));
    json_object_set_new(a, "warmup_rounds", json_integer(e->autotune_warmup_rounds));
    json_object_set_new(a, "measured_rounds", json_integer(e->autotune_measured_rounds));
    json_object_set_new(a, "pick", json_string("lowest median CUDA-event time; fresh N(0,1) inputs and a new order every round"));
    return a;
}

/* The baselines held to a clean process (docs/methodology.md): the cache as
 * given (null: the default place), its windows and the tolerance. */
static json_t *baseline_reference_object(const hb_run_options *o)
{
    json_t *b = json_object();
    char tolerance[200];
    hb_ref_tolerance_format(&o->baseline_tolerance, tolerance, sizeof tolerance);
    json_object_set_new(b, "cache", o->baseline_reference ? hb_json_text(o->baseline_reference) : json_null());
    json_object_set_new(b, "warmup_s", json_real(o->reference_warmup_s));
    json_object_set_new(b, "time_s", json_real(o->reference_time_s));
    json_object_set_new(b, "tolerance", json_string(tolerance));
    json_object_set_new(b, "noise_standard_errors", json_real(HB_REF_NOISE_Z));
    return b;
}

static json_t *server_object(const hb_run_options *o)
{
    if (o->mode != HB_MODE_SERVER)
        return json_null();
    json_t *server = json_object();
    json_object_set_new(server, "gap", json_string(hb_gap_name(o->mode, o->gap)));
    json_object_set_new(server, "gap_distribution", json_string("exponential"));
    json_object_set_new(server, "mean_gap_ms", json_real(o->mean_gap_ms));
    json_object_set_new(server, "qps", json_real(1000.0 / o->mean_gap_ms));
    json_object_set_new(server, "gaps_in_times", json_boolean(0));
    return server;
}

static json_t *stopping_object(const hb_run_options *o, const hb_engine_facts *e)
{
    json_t *stop = json_object();
    json_object_set_new(stop, "target_ci_halfwidth", o->target_ci > 0 ? json_real(o->target_ci) : json_null());
    json_object_set_new(stop, "min_time_s", o->target_ci > 0 ? json_real(o->min_time_s) : json_null());
    json_object_set_new(stop, "min_rounds", json_integer(o->target_ci > 0 ? e->target_ci_min_rounds : e->min_timed_rounds));
    json_object_set_new(stop, "cap_s", json_real(o->time_s));
    json_object_set_new(stop, "decide_alpha", o->gate && o->decide ? json_real(o->decide_alpha) : json_null());
    return stop;
}

/* The module-state limit and the peak the times are held to (docs/methodology.md). */
static json_t *integrity_object(const hb_run_record *run)
{
    const hb_run_options *o = run->options;
    const hb_peak_entry *entry = run->device ? hb_peak_entry_for(run->device->sm) : NULL;
    json_t *i = json_object();
    json_object_set_new(i, "module_state_limit_bytes", json_integer(HB_MODULE_STATE_LIMIT));
    json_object_set_new(i, "device_malloc", json_string("refused"));
    json_object_set_new(i, "peak_tflops_flag", o->peak_tflops > 0 ? json_real(o->peak_tflops) : json_null());
    json_object_set_new(i, "peak_flop_per_clock_per_sm", entry ? json_integer(entry->flop_per_clock_per_sm) : json_null());
    json_object_set_new(i, "peak_table_source", entry ? json_string(entry->source) : json_null());
    json_object_set_new(i, "peak_clock", json_string("highest NVML SM clock in the timed window, else the device's maximum"));
    return i;
}

/* The call monitor's settings (docs/trace.md). */
static json_t *trace_object(const hb_run_options *o)
{
    const int on = o->trace && o->isolate;
    json_t *t = json_object();
    json_object_set_new(t, "enabled", json_boolean(on));
    json_object_set_new(t, "calls_kept_whole", on ? json_integer(o->trace_calls) : json_null());
    json_object_set_new(t, "tool", json_string("CUPTI (loaded at run time): activity records of kernels, copies, "
                                               "sets and the harness's events, and callbacks on the API calls of "
                                               "the conduct classes, on in the evaluating process for every call: "
                                               "checks, warm-up and timed windows alike"));
    json_object_set_new(t, "kernel_time", json_string("median over the timed calls (over the calls after the first "
                                                      "when not timed): first kernel start to last kernel end "
                                                      "(kernel_us), and the sum of kernel durations (kernel_sum_us)"));
    json_object_set_new(t, "timers", json_string("headline on CUDA events unless a call's work may leave them: "
                                                 "then on the wall clock around a device synchronize for every "
                                                 "participant (headline_timer, timer_reason); events cross-checked "
                                                 "against CUPTI's device timestamps and the wall clock"));
    return t;
}

/* --reward's settings (docs/gate.md, "Reward"); null when off. */
static json_t *reward_settings_object(const hb_reward_settings *w)
{
    if (!w->on)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "alpha", json_real(w->alpha));
    json_object_set_new(o, "beta", json_real(w->beta));
    json_object_set_new(o, "clip", w->clip ? json_pack("[f,f]", w->clip_low, w->clip_high) : json_null());
    json_object_set_new(o, "source", w->source ? hb_json_text(w->source) : json_null());
    json_object_set_new(o, "length_bytes", w->source ? json_integer(w->length_bytes) : json_null());
    json_object_set_new(o, "formula", json_string("r = mean over the kept timed rounds of t_ref/t_cand (clipped into "
                                                  "clip when given) - alpha x mean over the deviation checks of the "
                                                  "candidate's max |C - ref32| - beta x length_bytes; t_ref: --vs, on "
                                                  "the configuration's headline timer"));
    return o;
}

static json_t *method_object(const hb_run_record *run)
{
    const hb_run_options *o = run->options;
    const hb_engine_facts *e = &run->engine;
    json_t *m = json_object();
    json_object_set_new(m, "mode", json_string(hb_mode_name(o->mode)));
    json_object_set_new(m, "server", server_object(o));
    json_object_set_new(m, "acc_class", json_string(hb_acc_class_name(o->acc)));
    json_object_set_new(m, "warmup_s", json_real(o->warmup_s));
    json_object_set_new(m, "time_s", json_real(o->time_s));
    json_object_set_new(m, "min_timed_rounds", json_integer(e->min_timed_rounds));
    json_object_set_new(m, "l2_policy", json_string(hb_l2_policy_name(o->l2)));
    json_object_set_new(m, "l2_policy_description", json_string(hb_l2_policy_description(o->l2)));
    json_object_set_new(m, "stream", json_string(hb_stream_policy_name(o->stream)));
    json_object_set_new(m, "trace", trace_object(o));
    json_object_set_new(m, "stopping", stopping_object(o, e));
    json_object_set_new(m, "confidence_interval",
                        json_string("95 % circular moving-block bootstrap of the mean log ratio (block cbrt(rounds), "
                                    "percentile interval)"));
    json_object_set_new(m, "bootstrap_resamples", json_integer(HB_BOOTSTRAP_RESAMPLES));
    json_object_set_new(m, "aa", o->aa ? json_string(o->aa) : json_null());
    json_object_set_new(m, "raw", json_boolean(o->raw));
    json_object_set_new(m, "telemetry",
                        json_string("NVML (loaded at run time) every 50 ms through each timed window: SM and memory "
                                    "clocks, temperature, power, clock event reasons"));
    json_object_set_new(m, "inputs", json_string("N(0,1) fp16, generated on the GPU from the seed"));
    json_object_set_new(m, "headline_timer", json_string("cuda-events"));
    json_object_set_new(m, "headline_statistic", json_string("geometric mean of paired per-round ratios, minus 1"));
    json_object_set_new(m, "workspace_bytes", json_integer((json_int_t)o->workspace_bytes));
    json_object_set_new(m, "workspace_applies_to",
                        json_string("cublas-nn/tn and all four cuBLASLt baselines; torch keeps PyTorch's own"));
    json_object_set_new(m, "torch_workspace_bytes", json_integer((json_int_t)e->torch_workspace_bytes));
    json_object_set_new(m, "correctness",
                        json_string("exact match on {0,1} and {-1,0,1} inputs; baseline-bounded deviation vs an fp32 "
                                    "GPU reference cross-checked in fp64; NaN-filled outputs, guard bands, input "
                                    "hashes, every warm-up and timed call's whole output scanned for the poison and "
                                    "NaN/Inf, spot checks of timed calls, a check after timing (docs/methodology.md)"));
    json_object_set_new(m, "exact_reps", json_integer(o->exact_reps));
    json_object_set_new(m, "exact_time_s", json_real(o->exact_time_s));
    json_object_set_new(m, "spot_checks", json_integer(o->spot_checks));
    json_object_set_new(m, "cross_check_rounds", json_real(o->cross_check_rounds));
    json_object_set_new(m, "sanitize", json_boolean(o->sanitize));
    char tools[64] = "";
    if (o->sanitize)
        hb_sanitizer_list(o->sanitize_tools, tools, sizeof tools);
    json_object_set_new(m, "sanitize_tools", json_string(tools));
    json_object_set_new(m, "profile", json_boolean(o->profile));
    json_object_set_new(m, "isolated", json_boolean(o->isolate));
    json_object_set_new(m, "timeout_s", json_real(o->timeout_s));
    json_object_set_new(m, "torch_acc_class", json_string("fp32 (torch.matmul accumulates fp16 in fp32 in either class)"));
    json_object_set_new(m, "autotune", autotune_object(o, e));
    json_object_set_new(m, "baseline_reference", baseline_reference_object(o));
    json_object_set_new(m, "integrity", integrity_object(run));
    json_object_set_new(m, "reward", reward_settings_object(&o->reward));
    return m;
}

static json_t *env_object(const hb_run_record *run)
{
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("hgemm-bench-env/1"));
    json_object_set_new(root, "run_id", json_string(run->run_id));
    json_object_set_new(root, "started_utc", json_string(run->started_utc));
    json_object_set_new(root, "command_line", hb_json_text(run->command_line));
    json_object_set_new(root, "seed", json_integer((json_int_t)run->options->seed));
    json_object_set_new(root, "seed_from_clock", json_boolean(!run->options->seed_given));
    json_object_set_new(root, "candidate", hb_json_text(hb_candidate_label(run->options)));
    json_object_set_new(root, "gpu", gpu_object(run->device));
    if (run->devices) { /* a sweep: every GPU it ran on, one per worker */
        json_t *gpus = json_array();
        for (size_t i = 0; i < run->n_devices; i++)
            json_array_append_new(gpus, gpu_object(&run->devices[i]));
        json_object_set_new(root, "gpus", gpus);
    }
    json_object_set_new(root, "software", software_object(run->device));
    json_object_set_new(root, "method", method_object(run));
    return root;
}

hb_status hb_env_json_write(const char *path, const hb_run_record *run)
{
    json_t *root = env_object(run);
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "out of memory building env.json");
    hb_status status = hb_json_write_file(path, root);
    json_decref(root);
    return status;
}

/* The sink: env.json in the run folder, written when the run begins. */
static hb_status env_begin(hb_sink *self, const hb_run_record *run)
{
    (void)self;
    char path[4200];
    snprintf(path, sizeof path, "%s/env.json", run->run_path);
    return hb_env_json_write(path, run);
}

static const hb_sink_ops env_json_ops = {.name = "env.json", .begin = env_begin};

hb_sink hb_env_json_sink(void)
{
    hb_sink sink = {&env_json_ops, NULL};
    return sink;
}
