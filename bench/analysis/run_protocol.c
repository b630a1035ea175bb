#include "bench/analysis/run_protocol.h"

#include <stdio.h>
#include <string.h>

#include "bench/analysis/number_ranges.h"
#include "bench/core/timing_policy.h"

int hb_command_line_flag(const char *command_line, const char *flag, char *out, size_t size)
{
    char name[64];
    size_t name_length = (size_t)snprintf(name, sizeof name, "--%s", flag);
    int found = 0;
    const char *at = command_line ? command_line : "";
    while (*at) {
        at += strspn(at, " ");
        size_t length = strcspn(at, " ");
        if (length == name_length && !strncmp(at, name, length)) { /* --flag VALUE */
            const char *value = at + length + strspn(at + length, " ");
            snprintf(out, size, "%.*s", (int)strcspn(value, " "), value);
            found = 1;
        } else if (length > name_length && !strncmp(at, name, name_length) && at[name_length] == '=') {
            snprintf(out, size, "%.*s", (int)(length - name_length - 1), at + name_length + 1);
            found = 1;
        }
        at += length;
    }
    return found;
}

/* A window of env.json's method, "?" where it is missing or not a window
 * the options allow (bench/analysis/number_ranges.h). */
static void seconds(const json_t *method, const char *key, char *out, size_t size)
{
    const json_t *v = json_object_get(method, key);
    if (json_is_number(v) && hb_number_fits(HB_NUM_WINDOW_SECONDS, json_number_value(v)))
        snprintf(out, size, "%g s", json_number_value(v));
    else
        snprintf(out, size, "?");
}

static void windows_words(const json_t *env, char *out, size_t size)
{
    const json_t *method = json_object_get(env, "method");
    char warmup[32], timed[32];
    seconds(method, "warmup_s", warmup, sizeof warmup);
    seconds(method, "time_s", timed, sizeof timed);
    const json_t *target = json_object_get(json_object_get(method, "stopping"), "target_ci_halfwidth");
    char stop[64] = "";
    if (json_is_number(target) && hb_number_fits(HB_NUM_FRACTION, json_number_value(target)))
        snprintf(stop, sizeof stop, ", or until the CI half-width is %g", json_number_value(target));
    snprintf(out, size, "warm-up %s, timed window %s%s", warmup, timed, stop);
}

/* Whether the call monitor ran: what env.json says it was set to do, for
 * the folder's configurations; a folder with none ran no monitor, whatever
 * its setting (each configuration's own trace is counted per mode in the
 * report's notes). */
static void trace_words(const json_t *env, size_t configs, char *out, size_t size)
{
    const json_t *method = json_object_get(env, "method");
    if (configs == 0) {
        snprintf(out, size, "none: no configuration ran");
        return;
    }
    const json_t *enabled = json_object_get(json_object_get(method, "trace"), "enabled");
    if (json_is_true(enabled))
        snprintf(out, size, "on (CUPTI call monitor: conduct checked, kernel-only times)");
    else if (json_is_false(enabled))
        snprintf(out, size, "OFF (%s: no conduct check, no kernel-only times; every timing is in doubt)",
                 json_is_false(json_object_get(method, "isolated")) ? "--no-isolate" : "--no-trace");
    else
        snprintf(out, size, "not recorded");
}

/* How the configurations were chosen: the plan's source and --sample, from the command line. */
static void plan_words(const json_t *env, const hb_plan_file *plan, char *out, size_t size)
{
    const char *line = plan ? plan->command_line : json_string_value(json_object_get(env, "command_line"));
    char grid[256] = "", sample[32] = "", seed[32] = "";
    const json_t *seed_value = json_object_get(env, "seed");
    if (json_is_integer(seed_value))
        snprintf(seed, sizeof seed, "%lld", (long long)json_integer_value(seed_value));
    else
        hb_command_line_flag(line, "seed", seed, sizeof seed);
    if (hb_command_line_flag(line, "grid", grid + 7, sizeof grid - 7)) {
        memcpy(grid, "--grid ", 7);
        static hb_sweep_plan paper; /* the one named grid: say how many it holds */
        if (!strcmp(grid + 7, "paper") && !paper.n_configs)
            hb_plan_grid_paper(&paper);
        if (!strcmp(grid + 7, "paper"))
            snprintf(grid + strlen(grid), sizeof grid - strlen(grid), " (%zu configurations)", paper.n_configs);
    }
    else if (hb_command_line_flag(line, "mnk-file", grid + 11, sizeof grid - 11))
        memcpy(grid, "--mnk-file ", 11);
    else
        snprintf(grid, sizeof grid, "%s", hb_command_line_flag(line, "m", sample, sizeof sample) ? "--m/--n/--k"
                                                                                                 : "--mnk");
    int sampled = hb_command_line_flag(line, "sample", sample, sizeof sample);
    if (!plan) {
        snprintf(out, size, "configurations from %s%s%s%s%s", grid, sampled ? ", a stratified sample of " : "",
                 sampled ? sample : "", sampled ? " drawn with seed " : "", sampled ? seed : "");
        return;
    }
    size_t items = hb_plan_item_count(&plan->plan);
    char shard[64] = "";
    if (plan->shard.count > 1)
        snprintf(shard, sizeof shard, ", shard %zu/%zu: %zu items", plan->shard.index, plan->shard.count,
                 hb_shard_size(&plan->shard, items));
    if (sampled)
        snprintf(out, size, "plan: %zu configurations x %zu modes = %zu items%s; a stratified sample of %s of %s, "
                 "drawn with seed %s", plan->plan.n_configs, plan->plan.n_modes, items, shard, sample, grid, seed);
    else
        snprintf(out, size, "plan: %zu configurations x %zu modes = %zu items%s; all of %s", plan->plan.n_configs,
                 plan->plan.n_modes, items, shard, grid);
}

static void mode_words(const json_t *env, const hb_plan_file *plan, char *out, size_t size)
{
    if (!plan) {
        const char *mode = json_string_value(json_object_get(json_object_get(env, "method"), "mode"));
        snprintf(out, size, "%s", mode ? mode : "not recorded");
        return;
    }
    out[0] = '\0';
    for (size_t m = 0; m < plan->plan.n_modes; m++) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", m ? "," : "", hb_mode_name(plan->plan.modes[m]));
    }
}

hb_status hb_run_protocol_note(const char *folder, const json_t *env, const hb_plan_file *plan, size_t configs,
                               hb_result_set *set)
{
    const char *candidate = json_string_value(json_object_get(env, "candidate"));
    const char *commit = plan ? plan->harness_commit
                              : json_string_value(json_object_get(json_object_get(env, "software"), "harness_commit"));
    char windows[160], trace[160], how[512], modes[32];
    windows_words(env, windows, sizeof windows);
    trace_words(env, configs, trace, sizeof trace);
    plan_words(env, plan, how, sizeof how);
    mode_words(env, plan, modes, sizeof modes);
    return hb_result_set_note(set, "%s: %s, candidate %s; mode %s; %s; %s; trace %s; harness commit %s", folder,
                              plan ? "sweep" : "run", candidate && candidate[0] ? candidate : "not recorded", modes,
                              how, windows, trace, commit && commit[0] ? commit : "not recorded");
}
