#define _POSIX_C_SOURCE 200809L /* glob */
#include "bench/analysis/reproduction_page.h"

#include <errno.h>
#include <glob.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/number_ranges.h"
#include "bench/analysis/published_layout.h"
#include "bench/analysis/reproduction_census.h"
#include "bench/analysis/reproduction_forms.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/input_file.h"
#include "bench/core/md_text.h"
#include "bench/core/version.h"

#define EMBED_MAX_BYTES (8u << 20) /* a report's markdown: a few hundred KiB for 1000 configurations */

/* What the sweep folder says of how it was measured, from the sources the
 * report embedded below reads (bench/analysis/run_protocol.h): the windows
 * and the call monitor from its env.json's method, the commit from its
 * plan.json, else env.json; a plan.json's flags only where env.json lacks
 * them.  The page describes the sweep that ran, not the flags of this
 * command (--tables-only has none), and says "unknown" where the folder
 * does not say: never a default. */
typedef struct sweep_settings {
    double warmup_s, time_s; /* seconds; NaN: not recorded */
    int traced;              /* 1: the call monitor ran, 0: it was off, -1: not recorded */
    const char *monitor_off; /* the flag that turned it off */
    char commit[64];         /* "": not recorded */
    char gpu[128];
} sweep_settings;

typedef struct page {
    const hb_repro_page_input *in;
    FILE *f;
    sweep_settings settings;
    hb_import_census import;
    hb_sweep_census sweeps[HB_PAGE_MAX_FORMS]; /* each form's */
    size_t form;                               /* the form the sections below write now */
    int have_import;
    size_t have_sweeps;                        /* sweeps[0 .. have_sweeps) were read (and are freed) */
    hb_form_rows rows[HB_PAGE_MAX_FORMS];      /* per configuration, with two forms */
    size_t have_rows;
} page;

static double percent(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* --- the protocol -------------------------------------------------------------------- */

/* The GPU that ran the sweep (summary.csv's, else env.json's), else the one here. */
static const char *gpu_of(const page *p)
{
    return p->sweeps[0].gpu[0] ? p->sweeps[0].gpu : p->settings.gpu[0] ? p->settings.gpu : p->in->gpu_here;
}

/* A window the plan's options give, `fallback` (the sweep's default: the
 * plan records every flag typed) where they give none; NaN where the value
 * is not one --warmup-s and --time-s take (bench/analysis/number_ranges.h). */
static double option_seconds(const json_t *options, const char *flag, double fallback)
{
    for (size_t i = 0; i + 1 < json_array_size(options); i++)
        if (json_is_string(json_array_get(options, i)) && !strcmp(json_string_value(json_array_get(options, i)), flag)) {
            double value;
            return hb_number_parse(HB_NUM_WINDOW_SECONDS, json_string_value(json_array_get(options, i + 1)), &value)
                       ? value
                       : NAN;
        }
    return fallback;
}

/* A window env.json's method records, NaN where it records none in range. */
static double method_seconds(const json_t *method, const char *key)
{
    const json_t *v = json_object_get(method, key);
    return json_is_number(v) && hb_number_fits(HB_NUM_WINDOW_SECONDS, json_number_value(v)) ? json_number_value(v)
                                                                                            : NAN;
}

static json_t *load_json(const page *p, const char *name)
{
    char path[3300];
    snprintf(path, sizeof path, "%s/%s", p->in->forms[0].sweep_dir, name);
    return json_load_file(path, 0, NULL);
}

static int option_given(const json_t *options, const char *flag)
{
    for (size_t i = 0; i < json_array_size(options); i++)
        if (json_is_string(json_array_get(options, i)) && !strcmp(json_string_value(json_array_get(options, i)), flag))
            return 1;
    return 0;
}

/* From env.json's method, as the report's header reads it. */
static void settings_of_env(const json_t *env, sweep_settings *s)
{
    const json_t *method = json_object_get(env, "method");
    s->warmup_s = method_seconds(method, "warmup_s");
    s->time_s = method_seconds(method, "time_s");
    const json_t *enabled = json_object_get(json_object_get(method, "trace"), "enabled");
    s->traced = json_is_true(enabled) ? 1 : json_is_false(enabled) ? 0 : -1;
    s->monitor_off = json_is_false(json_object_get(method, "isolated")) ? "--no-isolate" : "--no-trace";
    const char *commit = json_string_value(json_object_get(json_object_get(env, "software"), "harness_commit"));
    snprintf(s->commit, sizeof s->commit, "%.63s", commit ? commit : "");
    const char *gpu = json_string_value(json_object_get(json_object_get(env, "gpu"), "name"));
    snprintf(s->gpu, sizeof s->gpu, "%.127s", gpu ? gpu : "");
}

/* What plan.json adds: its commit (the report's first source) and, where
 * env.json is silent, the windows and the monitor its flags give. */
static void settings_of_plan(const json_t *plan, sweep_settings *s)
{
    const json_t *options = json_object_get(plan, "options");
    if (isnan(s->warmup_s))
        s->warmup_s = option_seconds(options, "--warmup-s", 10);
    if (isnan(s->time_s))
        s->time_s = option_seconds(options, "--time-s", 30);
    if (s->traced < 0) {
        s->traced = !option_given(options, "--no-trace") && !option_given(options, "--no-isolate");
        s->monitor_off = option_given(options, "--no-trace") ? "--no-trace" : "--no-isolate";
    }
    const char *commit = json_string_value(json_object_get(plan, "harness_commit"));
    if (commit && commit[0])
        snprintf(s->commit, sizeof s->commit, "%.63s", commit);
}

static void read_settings(page *p)
{
    sweep_settings *s = &p->settings;
    *s = (sweep_settings){NAN, NAN, -1, "--no-trace", "", ""};
    json_t *env = load_json(p, "env.json");
    if (env)
        settings_of_env(env, s);
    json_decref(env);
    json_t *plan = load_json(p, "plan.json");
    if (plan)
        settings_of_plan(plan, s);
    json_decref(plan);
}

/* Every text below that is not the page's own (a name, a path, a GPU, a
 * commit, a label read from a folder) is written as Markdown plain text or
 * as a code span that cannot be broken out of (bench/core/md_text.h). */
#define TEXT_ROOM 8400 /* a path of the clone (up to 4096 bytes), each character escaped */

/* The GPU line of the heading: "" or " on GPU". */
static void protocol_heading(page *p, const char *gpu)
{
    char set[256], on[512], form[64], other[64];
    const hb_repro_page_input *in = p->in;
    fprintf(p->f, "# CUDA-L2's %s set reproduced%s%s", hb_md_text(in->set_folder, set, sizeof set), gpu[0] ? " on " : "",
            hb_md_text(gpu, on, sizeof on));
    if (in->n_forms > 1)
        fprintf(p->f, ", in both forms: %s and %s\n\n", hb_md_text(in->forms[0].name, form, sizeof form),
                hb_md_text(in->forms[1].name, other, sizeof other));
    else
        fprintf(p->f, ", the %s form\n\n", hb_md_text(in->forms[0].name, form, sizeof form));
}

/* A section's heading; with two forms, naming the form it is of. */
static void heading(page *p, const char *title)
{
    char form[64];
    if (p->in->n_forms > 1)
        fprintf(p->f, "## %s: the %s form\n\n", title, hb_md_text(p->in->forms[p->form].name, form, sizeof form));
    else
        fprintf(p->f, "## %s\n\n", title);
}

static void windows_row(page *p)
{
    const sweep_settings *set = &p->settings;
    if (isnan(set->warmup_s) || isnan(set->time_s)) {
        fprintf(p->f, "| windows | unknown: neither the sweep's env.json nor a plan.json records them |\n");
        return;
    }
    fprintf(p->f, "| windows | %.3g s warm-up, %.3g s timed, per configuration and mode%s |\n", set->warmup_s,
            set->time_s, set->warmup_s >= 10 && set->time_s >= 30 ? " (the paper's)" : " (shorter than the paper's 10 s + 30 s)");
}

/* The configurations the sweep's summary.csv holds, over its modes. */
static size_t configs_run(const page *p)
{
    size_t n = 0;
    for (size_t m = 0; p->have_sweeps > p->form && m < p->sweeps[p->form].n_modes; m++)
        n += p->sweeps[p->form].configs[m];
    return n;
}

/* Whether the monitor ran, as the sweep records it; a sweep that ran no
 * configuration checked no conduct, whatever it was set to do. */
static void conduct_row(page *p)
{
    const sweep_settings *set = &p->settings;
    if (p->have_sweeps > p->form && configs_run(p) == 0)
        fprintf(p->f, "| conduct | no configuration ran |\n");
    else if (set->traced > 0)
        fprintf(p->f, "| conduct | checked: the CUPTI call monitor watched every call of every participant, in each "
                "configuration that ran |\n");
    else if (set->traced == 0)
        fprintf(p->f, "| conduct | **not checked** (%s): work off the timed stream would go unseen |\n",
                set->monitor_off);
    else
        fprintf(p->f, "| conduct | unknown: the sweep's env.json does not record whether the call monitor ran |\n");
}

static void protocol(page *p)
{
    const hb_repro_page_input *in = p->in;
    FILE *f = p->f;
    const char *gpu = gpu_of(p);
    char a[TEXT_ROOM], b[TEXT_ROOM], c[TEXT_ROOM], d[TEXT_ROOM];
    protocol_heading(p, gpu);
    fprintf(f, "| | |\n| --- | --- |\n");
    fprintf(f, "| set | %s of the clone %s: %s class, tuned by its authors on the %s |\n",
            hb_md_code(in->set_folder, HB_MD_IN_TABLE, a, sizeof a), hb_md_code(in->repo, HB_MD_IN_TABLE, b, sizeof b),
            hb_md_text(in->acc, c, sizeof c), hb_md_text(in->tuned_for, d, sizeof d));
    fprintf(f, "| run on | %s, every file built for %s |\n", gpu[0] ? hb_md_text(gpu, a, sizeof a) : "(no GPU named)",
            hb_md_code(in->arch, HB_MD_IN_TABLE, b, sizeof b));
    if (gpu[0] && !strstr(gpu, in->tuned_for))
        fprintf(f, "| **another GPU** | this set was tuned for the %s and runs here on the %s: its speedups are not "
                "the published ones' conditions, and the comparison below says so |\n",
                hb_md_text(in->tuned_for, a, sizeof a), hb_md_text(gpu, b, sizeof b));
    fprintf(f, "| plan | %zu configurations%s: %s (the set has %zu files%s) |\n", in->n_configs,
            in->configs_from_rows ? " measured (the sweep has no plan.json: the configurations its rows hold)" : "",
            hb_md_text(in->plan_source, a, sizeof a), in->set_files,
            in->without_file ? "; the plan's configurations without one are left out" : "");
    fprintf(f, "| modes | ");
    for (size_t i = 0; i < in->n_modes; i++)
        fprintf(f, "%s%s", i ? ", " : "", hb_mode_name(in->modes[i]));
    fprintf(f, " |\n");
    fprintf(f, "| form | ");
    for (size_t i = 0; i < in->n_forms; i++)
        fprintf(f, "%s%s", i ? "; " : "", !strcmp(in->forms[i].name, "launcher")
                                             ? "launcher: each launcher called with its own host code"
                                             : "replay: a launcher's recorded kernels launched by the harness (a "
                                               "launcher without a replay timed with its host code, and said)");
    fprintf(f, " |\n");
    windows_row(p);
    conduct_row(p);
    /* the sweep's commit is plan.json's word: plain text, not a code span, so no markup of it survives */
    const sweep_settings *set = &p->settings;
    fprintf(f, "| harness | the sweep's commit %s; this page's %s |\n",
            set->commit[0] ? hb_md_text(set->commit, a, sizeof a) : "unknown (neither plan.json nor env.json records it)",
            hb_md_code(hb_harness_commit(), HB_MD_IN_TABLE, b, sizeof b));
    fprintf(f, "| command | %s |\n", hb_md_code(in->command_line, HB_MD_IN_TABLE, a, sizeof a));
    fprintf(f, "| wall time of this run | ");
    double total = 0;
    for (size_t i = 0; i < in->n_stages; i++) {
        fprintf(f, "%s%s %.0f s", i ? ", " : "", hb_md_text(in->stage_names[i], a, sizeof a), in->stage_seconds[i]);
        total += in->stage_seconds[i];
    }
    fprintf(f, "%s; %.1f min in all (a stage resumed from an earlier run counts only its last part) |\n\n",
            in->n_stages ? "" : "none", total / 60);
}

/* --- the census ---------------------------------------------------------------------- */

/* A census table: its labels and columns (modes, verdicts, reasons read
 * from the folder's files) as plain text. */
static void label_table(FILE *f, const hb_label_counts *c, const char *what, const char *const *columns, size_t n)
{
    char text[1024];
    fprintf(f, "| %s |", hb_md_text(what, text, sizeof text));
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s |", hb_md_text(columns[i], text, sizeof text));
    fprintf(f, "\n| --- |");
    for (size_t i = 0; i < n; i++)
        fprintf(f, " ---: |");
    fprintf(f, "\n");
    for (size_t r = 0; r < c->n; r++) {
        fprintf(f, "| %s |", hb_md_text(c->rows[r].label, text, sizeof text));
        for (size_t i = 0; i < n; i++)
            fprintf(f, " %zu |", c->rows[r].count[i]);
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

static void import_census(page *p)
{
    FILE *f = p->f;
    const hb_import_census *c = &p->import;
    fprintf(f, "## The census of the set\n\n");
    if (!p->have_import) {
        char dir[TEXT_ROOM];
        fprintf(f, "No import.csv in %s: the import did not finish.\n\n",
                hb_md_code(p->in->set_dir, HB_MD_IN_TEXT, dir, sizeof dir));
        return;
    }
    size_t built = c->built + c->cached;
    fprintf(f, "%zu files selected: **%zu built** (%zu now, %zu from the cache), %zu failed, %zu skipped; %zu of the "
            "built have a cubin form (%.0f %%).",
            c->files, built, c->built, c->cached, c->failed, c->skipped, c->cubin_forms, percent(c->cubin_forms, built));
    if (built && c->build_seconds_sum > 0) /* a cached file keeps its first build's time */
        fprintf(f, " A file's build took %.0f s at the median, %.0f s at most, %.0f s of build time in all.",
                c->build_seconds_median, c->build_seconds_max, c->build_seconds_sum);
    fprintf(f, "\n\n");
    static const char *const kind_columns[] = {"files", "built", "not built", "with a cubin form"};
    label_table(f, &c->by_kind, "kind", kind_columns, 4);
    static const char *const count_column[] = {"files"};
    if (c->failures.n) {
        fprintf(f, "Why the others did not build (import.csv has each file's first error line):\n\n");
        label_table(f, &c->failures, "reason", count_column, 1);
    }
    if (c->no_cubin.n) {
        fprintf(f, "Why a built file has no cubin form (it is then timed through its own launcher only):\n\n");
        label_table(f, &c->no_cubin, "why", count_column, 1);
    }
}

/* --- what the sweep found ------------------------------------------------------------ */

static void verdicts(page *p)
{
    FILE *f = p->f;
    const hb_sweep_census *c = &p->sweeps[p->form];
    heading(p, "Verdicts by check");
    const char *columns[HB_CENSUS_MODES];
    for (size_t i = 0; i < c->n_modes; i++)
        columns[i] = c->modes[i];
    label_table(f, &c->verdicts, "verdict / check", columns, c->n_modes);
    if (c->doubt.n) {
        fprintf(f, "Passing configurations whose timing is in doubt (counted in the tables, and marked there):\n\n");
        label_table(f, &c->doubt, "why", columns, c->n_modes);
    } else {
        fprintf(f, "No passing configuration's timing is in doubt: none left the timed stream, all were traced.\n\n");
    }
}

static void paper_rule(page *p)
{
    FILE *f = p->f;
    const hb_sweep_census *c = &p->sweeps[p->form];
    heading(p, "Kernels that fail the paper's own deviation rule");
    if (!c->has_paper_rule) {
        fprintf(f, "summary.csv has no paper_rule column (a harness before it was written).\n\n");
        return;
    }
    fprintf(f, "The paper's rule: the kernel's largest |out - fp32 reference| may not exceed the largest of the six "
            "cuBLAS/cuBLASLt baselines' on the same inputs. %zu configuration-modes fail it%s\n\n",
            c->n_paper_failures, c->n_paper_failures ? " (a kernel with the verdict pass fails it only where our rule, "
                                                        "which accepts any honest fp32 accumulation order, says its "
                                                        "excess is rounding):" : ".");
    if (!c->n_paper_failures)
        return;
    fprintf(f, "| M_N_K | modes | our verdict | deviation / bound |\n| --- | --- | --- | ---: |\n");
    for (size_t i = 0; i < c->n_paper_failures; i++) {
        const hb_paper_failure *x = &c->paper_failures[i], *next = i + 1 < c->n_paper_failures ? x + 1 : NULL;
        int both = next && next->m == x->m && next->n == x->n && next->k == x->k && !strcmp(next->verdict, x->verdict);
        char mode[64], other[64], verdict[256];
        fprintf(f, "| %ld_%ld_%ld | %s%s%s | %s | ", x->m, x->n, x->k, hb_md_text(x->mode, mode, sizeof mode),
                both ? ", " : "", both ? hb_md_text(next->mode, other, sizeof other) : "",
                hb_md_text(x->verdict, verdict, sizeof verdict));
        if (isfinite(x->ratio))
            fprintf(f, "%.1fx |\n", x->ratio);
        else
            fprintf(f, "|\n");
        i += both; /* a configuration failing in both modes: one row */
    }
    fprintf(f, "\n");
}

static void audit(page *p)
{
    FILE *f = p->f;
    const hb_sweep_census *c = &p->sweeps[p->form];
    heading(p, "The static accumulator audit beside the deviation verdicts");
    if (!c->has_audit) {
        fprintf(f, "No mma_accumulators column in import.csv or summary.csv: the audit did not run.\n\n");
        return;
    }
    char mode[64];
    fprintf(f, "Tensor-core instructions by accumulator type, from each built file's SASS, against the verdict of "
            "its first mode (%s). A kernel with fp16-accumulating MMA only that passed is one whose deviation the "
            "check could not see at that size; a deviation failure with f32 MMA is rounding elsewhere.\n\n",
            hb_md_text(c->n_modes ? c->modes[0] : "", mode, sizeof mode));
    static const char *const columns[] = {"pass", "incorrect / deviation", "incorrect / other", "other verdict"};
    label_table(f, &c->audit, "mma_accumulators", columns, 4);
}

/* The report's figure of where the speedups of `mode` (a census label:
 * only "offline" or "server" names a figure) come from, with its caption
 * (the counts), where report drew it. */
static void source_figure(page *p, const char *label)
{
    hb_mode mode;
    if (!hb_mode_parse(label, &mode))
        return;
    const char *m = hb_mode_name(mode);
    char link[160], png[3300], caption_path[3300], target[600], escaped[2400];
    const char *report = p->in->forms[p->form].report;
    snprintf(link, sizeof link, "%.40s/report_speedup_source_%s.png", report, m);
    snprintf(png, sizeof png, "%.3000s/%s", p->in->out_dir, link);
    snprintf(caption_path, sizeof caption_path, "%.3000s/%.40s/report_speedup_source_%s.txt", p->in->out_dir, report,
             m);
    struct stat st;
    if (stat(png, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    fprintf(p->f, "![where the %s speedups come from](%s)\n\n", m, hb_md_link_target(link, target, sizeof target));
    char *caption = NULL;
    size_t size = 0;
    if (hb_input_read(caption_path, NULL, 4096, HB_ERR_BAD_RESULTS, 1, &caption, &size) == HB_OK && caption) {
        caption[strcspn(caption, "\n")] = '\0'; /* one line; a NUL byte of the file ends it too */
        if (caption[0])
            fprintf(p->f, "*%s*\n\n", hb_md_text(caption, escaped, sizeof escaped));
    }
    free(caption);
}

static void timers(page *p)
{
    FILE *f = p->f;
    const hb_sweep_census *c = &p->sweeps[p->form];
    heading(p, "The speedups on every timer");
    fprintf(f, "The paper's aggregate (the arithmetic mean of the per-configuration speedups t_base/t_cand - 1, in "
            "%%) over the configurations that passed, on each timer: the headline's (CUDA events, or the wall clock "
            "where the events cannot be trusted), the events alone, the host's wall clock, and the kernels' own GPU "
            "time (CUPTI). A speedup on events but not on kernel-only time is host path, not a faster kernel. "
            "In brackets: the geometric mean.\n\n");
    for (size_t m = 0; m < c->n_modes; m++) {
        char mode[64];
        fprintf(f, "**%s** (%zu configurations)\n\n| over |", hb_md_text(c->modes[m], mode, sizeof mode),
                c->configs[m]);
        for (int t = 0; t < HB_CENSUS_TIMERS; t++)
            fprintf(f, " %s |", hb_census_timers[t]);
        fprintf(f, "\n| --- |");
        for (int t = 0; t < HB_CENSUS_TIMERS; t++)
            fprintf(f, " ---: |");
        fprintf(f, "\n");
        for (int b = 0; b < HB_CENSUS_BASELINES; b++) {
            const hb_timer_means *x = &c->means[m][b];
            fprintf(f, "| %s |", hb_census_baselines[b]);
            for (int t = 0; t < HB_CENSUS_TIMERS; t++)
                if (x->n[t])
                    fprintf(f, " %+.1f %% (%+.1f %%), n %zu |", 100 * x->sum[t] / (double)x->n[t],
                            100 * expm1(x->log_sum[t] / (double)x->n[t]), x->n[t]);
                else
                    fprintf(f, " |");
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
        source_figure(p, c->modes[m]);
    }
}

/* --- what the other commands wrote ---------------------------------------------------- */

/* A page this reproduction wrote (report.md, compare-MODE.md), its own
 * texts already escaped by the report's writer, under `heading`. */
static hb_status embed(page *p, const char *path, const char *heading)
{
    char *text = NULL;
    size_t size = 0;
    char escaped[TEXT_ROOM];
    HB_TRY(hb_input_read(path, heading, EMBED_MAX_BYTES, HB_ERR_BAD_RESULTS, 1, &text, &size));
    fprintf(p->f, "## %s\n\n", hb_md_text(heading, escaped, sizeof escaped));
    if (!text) {
        fprintf(p->f, "(%s was not written)\n\n", hb_md_text(path, escaped, sizeof escaped));
        return HB_OK;
    }
    /* the embedded document's headings one level down, under this one */
    for (const char *line = text; *line;) {
        size_t length = strcspn(line, "\n");
        fprintf(p->f, "%s%.*s\n", line[0] == '#' ? "#" : "", (int)length, line);
        line += length + (line[length] == '\n');
    }
    fprintf(p->f, "\n");
    free(text);
    return HB_OK;
}

static void figures(page *p, const char *folder)
{
    char pattern[3300];
    snprintf(pattern, sizeof pattern, "%s/%s/*.png", p->in->out_dir, folder);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *name = strrchr(g.gl_pathv[i], '/') + 1;
        if (strstr(name, "_speedup_source_")) /* shown with the timers, above */
            continue;
        char alt[1024], target[3300], relative[1100];
        snprintf(relative, sizeof relative, "%s/%s", folder, name);
        fprintf(p->f, "![%s](%s)\n\n", hb_md_text(name, alt, sizeof alt),
                hb_md_link_target(relative, target, sizeof target));
    }
    globfree(&g);
}

/* "" with one form, " (the replay form)" with two: what a heading of an embedded page adds. */
static void form_words(const page *p, char *out, size_t size)
{
    out[0] = '\0';
    if (p->in->n_forms > 1)
        snprintf(out, size, " (the %.20s form)", p->in->forms[p->form].name);
}

static hb_status comparisons(page *p)
{
    const hb_repro_page_input *in = p->in;
    const hb_repro_page_form *form = &in->forms[p->form];
    char which[64];
    form_words(p, which, sizeof which);
    for (size_t i = 0; i < in->n_modes; i++) {
        const char *mode = hb_mode_name(in->modes[i]);
        char heading[3400], md[3300], folder[128];
        if (!form->compared[i]) {
            char published[TEXT_ROOM];
            fprintf(p->f, "## Ours beside the published %s figures%s\n\nNo comparison: %s was not found.\n\n", mode,
                    which, hb_md_text(in->published[i], published, sizeof published));
            continue;
        }
        snprintf(heading, sizeof heading, "Ours beside the published %s figures%s (hgemm-bench compare, against %s)",
                 mode, which, in->published[i]);
        snprintf(folder, sizeof folder, "%.40s%s", form->compare_prefix, mode);
        snprintf(md, sizeof md, "%s/%s.md", in->out_dir, folder);
        HB_TRY(embed(p, md, heading));
        figures(p, folder);
    }
    return HB_OK;
}

/* --- the forms side by side ------------------------------------------------------------ */

static void say_ratio(FILE *f, double ratio)
{
    if (isfinite(ratio))
        fprintf(f, " %.2fx |", ratio);
    else
        fprintf(f, " |");
}

/* The published figure over the headline baseline of M, N, K; NaN: none. */
static double published_ratio(const hb_published_table *t, long m, long n, long k)
{
    int column = hb_speedup_column_find(HB_FORMS_BASELINE);
    const hb_published_row *row = t && column >= 0 ? hb_published_find(t, m, n, k) : NULL;
    return row ? row->ratio[column] : NAN;
}

static void side_row(page *p, const hb_form_config *any, const hb_published_table *published)
{
    FILE *f = p->f;
    char verdict[64];
    fprintf(f, "| %ld | %ld | %ld |", any->m, any->n, any->k);
    for (size_t i = 0; i < p->in->n_forms; i++) {
        const hb_form_config *c = hb_form_rows_find(&p->rows[i], any->m, any->n, any->k, any->mode);
        say_ratio(f, c ? c->ratio : NAN);
        fprintf(f, " %s |", c ? hb_md_text(c->verdict, verdict, sizeof verdict) : "not run");
    }
    say_ratio(f, published_ratio(published, any->m, any->n, any->k));
    fprintf(f, "\n");
}

/* Per form, the geometric mean of its figures over the passing
 * configurations of `mode` that have one, and how many passed. */
static void aggregates(page *p, const char *mode, const hb_published_table *published)
{
    FILE *f = p->f;
    for (size_t i = 0; i < p->in->n_forms; i++) {
        const hb_form_rows *rows = &p->rows[i];
        size_t runs = 0, passed = 0, n = 0, n_published = 0;
        double log_sum = 0, log_published = 0;
        for (size_t r = 0; r < rows->n; r++) {
            const hb_form_config *c = &rows->rows[r];
            if (strcmp(c->mode, mode))
                continue;
            runs++;
            passed += !strcmp(c->verdict, "pass");
            if (!isfinite(c->ratio))
                continue;
            n++;
            log_sum += log(c->ratio);
            double theirs = published_ratio(published, c->m, c->n, c->k);
            if (isfinite(theirs)) {
                n_published++;
                log_published += log(theirs);
            }
        }
        char name[64];
        fprintf(f, "- %s: %zu of %zu configurations pass", hb_md_text(p->in->forms[i].name, name, sizeof name), passed,
                runs);
        if (n)
            fprintf(f, "; geometric mean %.3fx over %s over %zu of them", exp(log_sum / (double)n), HB_FORMS_BASELINE, n);
        if (n_published)
            fprintf(f, " (the published figure's over the %zu of those it has: %.3fx)", n_published,
                    exp(log_published / (double)n_published));
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

static void refusals(page *p)
{
    for (size_t i = 0; i < p->in->n_forms; i++) {
        const hb_form_rows *rows = &p->rows[i];
        if (strcmp(p->in->forms[i].name, "replay") || !rows->has_refusals)
            continue;
        size_t total = 0;
        for (size_t r = 0; r < rows->refusals.n; r++)
            total += rows->refusals.rows[r].count[0];
        if (!total) {
            fprintf(p->f, "Every launcher of the replay form had a replay.\n\n");
            continue;
        }
        fprintf(p->f, "%zu launchers had no replay (timed in the replay form with their own host code, as in the "
                "launcher form), by why:\n\n", total);
        static const char *const column[] = {"configurations"};
        label_table(p->f, &rows->refusals, "replay_refusal", column, 1);
    }
}

/* With two forms, per configuration: each form's figure over the
 * headline's baseline and its verdict, beside the published figure. */
static hb_status side_by_side(page *p)
{
    const hb_repro_page_input *in = p->in;
    if (in->n_forms < 2)
        return HB_OK;
    FILE *f = p->f;
    char a[64], b[64];
    fprintf(f, "## The forms side by side\n\n");
    fprintf(f, "Per configuration: t_base / t_cand over %s on the headline timer (a figure only where the "
            "configuration passed) and the verdict, of the %s form (the launcher's kernels with the harness's launch) "
            "and of the %s form (the call with its own host code), beside the published figure over the same "
            "baseline. Where the forms differ, the difference is the launcher's host path.\n\n",
            HB_FORMS_BASELINE, hb_md_text(in->forms[0].name, a, sizeof a), hb_md_text(in->forms[1].name, b, sizeof b));
    for (size_t m = 0; m < in->n_modes; m++) {
        const char *mode = hb_mode_name(in->modes[m]);
        hb_published_table table = {0}, *published = NULL;
        struct stat st;
        if (stat(in->published[m], &st) == 0) {
            HB_TRY(hb_read_published(in->published[m], &table));
            published = &table;
        }
        fprintf(f, "**%s**\n\n| M | N | K | %s | verdict | %s | verdict | published |\n"
                "| ---: | ---: | ---: | ---: | --- | ---: | --- | ---: |\n", mode, a, b);
        for (size_t i = 0; i < in->n_forms; i++)
            for (size_t r = 0; r < p->rows[i].n; r++) {
                const hb_form_config *c = &p->rows[i].rows[r];
                /* a configuration once: at its first form's row */
                if (!strcmp(c->mode, mode) && (i == 0 || !hb_form_rows_find(&p->rows[0], c->m, c->n, c->k, mode)))
                    side_row(p, c, published);
            }
        fprintf(f, "\n");
        aggregates(p, mode, published);
        if (published)
            hb_published_free(published);
    }
    refusals(p);
    return HB_OK;
}

/* --- the page ------------------------------------------------------------------------ */

/* The import's reports: SET/import.csv, else the shards' (import-shard-*.csv). */
static int find_reports(const char *set_dir, glob_t *g)
{
    char pattern[3300];
    snprintf(pattern, sizeof pattern, "%s/import.csv", set_dir);
    if (glob(pattern, 0, NULL, g) == 0)
        return 1;
    snprintf(pattern, sizeof pattern, "%s/import-shard-*-of-*.csv", set_dir);
    return glob(pattern, 0, NULL, g) == 0;
}

static hb_status read_inputs(page *p)
{
    read_settings(p);
    glob_t g = {0};
    int found = find_reports(p->in->set_dir, &g);
    const char *const *reports = found ? (const char *const *)g.gl_pathv : NULL;
    size_t n_reports = found ? g.gl_pathc : 0;
    hb_status status = HB_OK;
    if (found) {
        status = hb_import_census_read(reports, n_reports, &p->import);
        p->have_import = 1; /* freed below whatever the read said */
    }
    for (size_t i = 0; status == HB_OK && i < p->in->n_forms; i++) {
        char summary[3300];
        snprintf(summary, sizeof summary, "%s/summary.csv", p->in->forms[i].sweep_dir);
        status = hb_sweep_census_read(summary, p->have_import ? &p->import : NULL, reports, n_reports, &p->sweeps[i]);
        p->have_sweeps = i + 1; /* freed below whatever the read said */
        if (status == HB_OK && p->in->n_forms > 1) {
            status = hb_form_rows_read(summary, &p->rows[i]);
            p->have_rows = i + 1;
        }
    }
    globfree(&g);
    return status;
}

static hb_status write_page(page *p)
{
    protocol(p);
    import_census(p);
    HB_TRY(side_by_side(p));
    for (p->form = 0; p->form < p->in->n_forms; p->form++) {
        verdicts(p);
        paper_rule(p);
        audit(p);
        timers(p);
    }
    for (p->form = 0; p->form < p->in->n_forms; p->form++) {
        HB_TRY(comparisons(p));
        const char *report = p->in->forms[p->form].report;
        char md[3300], title[128], which[64];
        form_words(p, which, sizeof which);
        snprintf(md, sizeof md, "%s/%s.md", p->in->out_dir, report);
        snprintf(title, sizeof title, "The paper's tables%s (hgemm-bench report)", which);
        HB_TRY(embed(p, md, title));
        figures(p, report);
    }
    p->form = 0;
    return ferror(p->f) ? hb_fail(HB_ERR_IO, "writing the summary page failed: %s", strerror(errno)) : HB_OK;
}

hb_status hb_repro_page_write(const hb_repro_page_input *in)
{
    page p = {.in = in};
    char path[3300];
    snprintf(path, sizeof path, "%s/summary.md", in->out_dir);
    hb_out_file out = {0};
    hb_status status = read_inputs(&p);
    if (status == HB_OK && (status = hb_out_file_begin(&out, path)) == HB_OK) {
        p.f = out.stream;
        status = write_page(&p);
        if (status == HB_OK)
            status = hb_out_file_commit(&out);
        else
            hb_out_file_abandon(&out);
    }
    if (p.have_import)
        hb_import_census_free(&p.import);
    for (size_t i = 0; i < p.have_sweeps; i++)
        hb_sweep_census_free(&p.sweeps[i]);
    for (size_t i = 0; i < p.have_rows; i++)
        hb_form_rows_free(&p.rows[i]);
    return status;
}
