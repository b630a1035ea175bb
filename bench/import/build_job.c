#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "bench/import/build_job.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/import/command_run.h"

#define MAX_WORDS 64

typedef struct words {
    char *word[MAX_WORDS + 1];
    size_t count;
    char store[16384];
    size_t used;
} words;

static void add(words *w, const char *text)
{
    size_t len = strlen(text) + 1;
    if (w->count == MAX_WORDS || w->used + len > sizeof w->store)
        return; /* cannot happen with the fixed commands below; the command then fails visibly */
    memcpy(w->store + w->used, text, len);
    w->word[w->count++] = w->store + w->used;
    w->word[w->count] = NULL;
    w->used += len;
}

static void add_pair(words *w, const char *flag, const char *value)
{
    add(w, flag);
    add(w, value);
}

/* nvcc with the format's flags (CUDA-L2's) for the target, and its shim first on the include path. */
static void nvcc_compile(words *w, const hb_build_settings *s)
{
    add(w, s->toolchain->nvcc);
    for (size_t i = 0; s->format->nvcc_flags[i]; i++)
        add(w, s->format->nvcc_flags[i]);
    char gencode[64];
    snprintf(gencode, sizeof gencode, "arch=compute_%d%s,code=sm_%d%s", s->arch.sm, s->arch.specific ? "a" : "",
             s->arch.sm, s->arch.specific ? "a" : "");
    add_pair(w, "-gencode", gencode);
    add_pair(w, "-I", s->data->shim);
}

hb_status hb_build_adapter(const hb_build_settings *s, const char *entry_name, const char *path, const char *log_path)
{
    words w = {0};
    nvcc_compile(&w, s);
    add_pair(&w, "-I", s->data->include);
    char define[160];
    snprintf(define, sizeof define, "-D%.60s=%s", s->format->adapter_entry_macro, entry_name);
    add(&w, define);
    add_pair(&w, "-c", s->data->adapter);
    char partial[HB_PATH_MAX + 16];
    /* renamed when whole: a killed build leaves no object; the pid keeps two
     * imports sharing one cache (the shards of a reproduction) off each other's file */
    snprintf(partial, sizeof partial, "%.4000s.partial-%ld", path, (long)getpid());
    add_pair(&w, "-o", partial);
    hb_command_end end;
    HB_TRY(hb_command_run(w.word, NULL, NULL, log_path, s->build_timeout_s, &end));
    if (end.exited && end.code == 0 && rename(partial, path) == 0)
        return HB_OK;
    unlink(partial);
    /* Neither is the harness's fault: the import's exit is 128 + the signal
     * after an interrupt, and an adapter that does not build says that this
     * nvcc and CUTLASS build nothing (bad input, as an nvcc that cannot run). */
    if (end.stopped)
        return hb_fail(HB_ERR_BAD_INPUT, "the adapter's build was stopped: the import was interrupted");
    char line[512];
    hb_first_error_line(log_path, line, sizeof line);
    return hb_fail(HB_ERR_BAD_INPUT, "the adapter (%s) did not build for %s with this nvcc (--nvcc) and CUTLASS "
                   "(--cutlass): %s (see %s)", s->data->adapter, entry_name, line[0] ? line : "no error line", log_path);
}

/* --- the steps --------------------------------------------------------------------- */

typedef struct job_state {
    const hb_build_settings *s;
    const hb_build_job *job;
    char dir[HB_PATH_MAX];  /* the private folder being filled */
    char log[HB_PATH_MAX + 16];
    hb_build_outcome outcome;
} job_state;

static void path_in(const job_state *st, const char *name, char *out, size_t size)
{
    snprintf(out, size, "%.4000s/%s", st->dir, name);
}

/* Runs a step; 0 and the outcome's failure filled when it failed. */
static int step(job_state *st, const char *name, char *const argv[], const char *cwd, int timeout_s)
{
    hb_command_end end;
    if (hb_command_run(argv, cwd, NULL, st->log, timeout_s, &end) != HB_OK) {
        snprintf(st->outcome.step, sizeof st->outcome.step, "%s", name);
        snprintf(st->outcome.first_error, sizeof st->outcome.first_error, "could not run %s", argv[0]);
        return 0;
    }
    if (end.exited && end.code == 0)
        return 1;
    snprintf(st->outcome.step, sizeof st->outcome.step, "%s", name);
    st->outcome.timed_out = end.timed_out;
    hb_first_error_line(st->log, st->outcome.first_error, sizeof st->outcome.first_error);
    if (!st->outcome.first_error[0] || end.timed_out || end.signal)
        hb_command_end_text(&end, timeout_s, st->outcome.first_error, sizeof st->outcome.first_error);
    return 0;
}

static int compile_kernel(job_state *st)
{
    words w = {0};
    nvcc_compile(&w, st->s);
    add_pair(&w, "-I", st->s->cutlass->include);
    add_pair(&w, "-I", st->s->cutlass->util_include);
    add(&w, "--keep"); /* keeps this compile's cubin: the cubin form is the very code the library holds */
    add_pair(&w, "--keep-dir", "keep");
    add_pair(&w, "--time", HB_ENTRY_STAGES); /* a row per phase: where the build's time goes */
    add_pair(&w, "-c", st->job->source);
    add_pair(&w, "-o", "kernel.o");
    char keep[HB_PATH_MAX + 16];
    path_in(st, "keep", keep, sizeof keep);
    if (mkdir(keep, 0755) != 0) {
        snprintf(st->outcome.first_error, sizeof st->outcome.first_error, "cannot create %.400s: %s", keep, strerror(errno));
        return 0;
    }
    return step(st, "compile", w.word, st->dir, st->s->build_timeout_s);
}

/* nvcc's table of the compile's phases into the outcome's stages; the table is not kept. */
static void read_stages(job_state *st)
{
    char path[HB_PATH_MAX + 16];
    path_in(st, HB_ENTRY_STAGES, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f)
        return; /* the compile did not start, or an nvcc without --time: the stages stay unknown */
    char text[16384]; /* a row per phase: about ten rows of 300 bytes */
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    hb_build_stages_parse(text, n, &st->outcome.stages);
    unlink(path);
}

/* A step of the build, timed into its stage. */
static int timed(job_state *st, int (*fn)(job_state *), hb_build_stage stage)
{
    double start = hb_now_s();
    int ok = fn(st);
    st->outcome.stages.seconds[stage] += hb_now_s() - start;
    return ok;
}

static int link_library(job_state *st)
{
    words w = {0};
    add(&w, st->s->toolchain->nvcc);
    add(&w, "-shared");
    add_pair(&w, "-cudart", "shared");
    add_pair(&w, "-o", HB_ENTRY_LIBRARY);
    add(&w, "kernel.o");
    add(&w, st->job->adapter_object);
    return step(st, "link", w.word, st->dir, st->s->build_timeout_s);
}

static int record(job_state *st)
{
    char library[HB_PATH_MAX + 16], json[HB_PATH_MAX + 16];
    path_in(st, HB_ENTRY_LIBRARY, library, sizeof library);
    path_in(st, HB_ENTRY_RECORDING, json, sizeof json);
    if (hb_launch_record(st->s->data->recorder, library, st->job->padded, &st->s->device, st->s->record_timeout_s,
                         json, st->log) == HB_OK)
        return 1;
    snprintf(st->outcome.step, sizeof st->outcome.step, "record");
    snprintf(st->outcome.first_error, sizeof st->outcome.first_error,
             "the launch recorder failed on the library (see %s in the entry)", HB_ENTRY_LOG);
    return 0;
}

/* The kept cubin, named after the source (keep/<stem>.cubin), becomes kernel.cubin. */
static void keep_cubin(job_state *st)
{
    hb_launch_summary summary;
    hb_cubin_form form;
    char json[HB_PATH_MAX + 16];
    path_in(st, HB_ENTRY_RECORDING, json, sizeof json);
    if (hb_launch_recording_read(json, &summary, &form) != HB_OK || !form.possible)
        return;
    const char *base = strrchr(st->job->source, '/');
    base = base ? base + 1 : st->job->source;
    char stem[256];
    snprintf(stem, sizeof stem, "%.200s", base);
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = '\0';
    char from[HB_PATH_MAX + 300], to[HB_PATH_MAX + 16];
    snprintf(from, sizeof from, "%.4000s/keep/%s.cubin", st->dir, stem);
    path_in(st, HB_ENTRY_CUBIN, to, sizeof to);
    st->outcome.cubin = rename(from, to) == 0;
}

static json_t *stages_json(const hb_build_stages *stages)
{
    json_t *doc = json_object();
    for (int s = 0; doc && stages->known && s < HB_STAGE_COUNT; s++)
        json_object_set_new(doc, hb_build_stage_name((hb_build_stage)s), json_real(stages->seconds[s]));
    return doc;
}

static hb_status write_outcome(const job_state *st)
{
    const hb_build_outcome *o = &st->outcome;
    json_t *doc = json_pack("{s:s, s:b, s:b, s:s, s:s, s:b, s:f, s:o, s:f}", "format",
                            "hgemm-bench-import-outcome/1", "built", o->built, "cubin", o->cubin, "step", o->step,
                            "first_error", o->first_error, "timed_out", o->timed_out, "seconds", o->seconds, "stages",
                            stages_json(&o->stages), "peak_rss_mib", o->peak_rss_mib);
    char path[HB_PATH_MAX + 16];
    path_in(st, HB_ENTRY_OUTCOME, path, sizeof path);
    int failed = !doc || json_dump_file(doc, path, JSON_INDENT(1)) != 0;
    json_decref(doc);
    if (failed)
        return hb_fail(HB_ERR_IO, "cannot write %s", path);
    return HB_OK;
}

hb_status hb_build_job_run(const hb_build_settings *s, const hb_build_job *job)
{
    job_state st = {.s = s, .job = job};
    snprintf(st.dir, sizeof st.dir, "%.4000s.building-XXXXXX", job->entry_dir);
    if (!mkdtemp(st.dir))
        return hb_fail(HB_ERR_IO, "cannot create a folder beside %s: %s", job->entry_dir, strerror(errno));
    path_in(&st, HB_ENTRY_LOG, st.log, sizeof st.log);
    const double start = hb_now_s();
    int compiled = compile_kernel(&st);
    read_stages(&st);
    st.outcome.built = compiled && timed(&st, link_library, HB_STAGE_LINK) && timed(&st, record, HB_STAGE_RECORD);
    if (st.outcome.built)
        keep_cubin(&st);
    st.outcome.seconds = hb_now_s() - start;
    struct rusage children;
    if (getrusage(RUSAGE_CHILDREN, &children) == 0) /* ru_maxrss: the largest child's, in KiB (Linux) */
        st.outcome.peak_rss_mib = (double)children.ru_maxrss / 1024.0;
    char keep[HB_PATH_MAX + 16], object[HB_PATH_MAX + 16];
    path_in(&st, "keep", keep, sizeof keep);
    path_in(&st, "kernel.o", object, sizeof object);
    hb_remove_tree(keep); /* the compile's intermediates: hundreds of MB for a CUTLASS file */
    unlink(object);
    hb_status status = write_outcome(&st);
    if (status == HB_OK && rename(st.dir, job->entry_dir) != 0 && errno != ENOTEMPTY && errno != EEXIST)
        status = hb_fail(HB_ERR_IO, "cannot move %s to %s: %s", st.dir, job->entry_dir, strerror(errno));
    hb_remove_tree(st.dir); /* left only when another build of the same entry got there first */
    return status;
}

hb_status hb_build_outcome_read(const char *entry_dir, hb_build_outcome *out)
{
    memset(out, 0, sizeof *out);
    char path[HB_PATH_MAX + 16];
    snprintf(path, sizeof path, "%.4000s/%s", entry_dir, HB_ENTRY_OUTCOME);
    json_t *doc = json_load_file(path, 0, NULL);
    if (!doc)
        return HB_ERR_BAD_INPUT;
    out->built = json_is_true(json_object_get(doc, "built"));
    out->cubin = json_is_true(json_object_get(doc, "cubin"));
    snprintf(out->step, sizeof out->step, "%s", json_string_value(json_object_get(doc, "step")) ?
             json_string_value(json_object_get(doc, "step")) : "");
    const char *error = json_string_value(json_object_get(doc, "first_error"));
    snprintf(out->first_error, sizeof out->first_error, "%s", error ? error : "");
    out->seconds = json_real_value(json_object_get(doc, "seconds"));
    json_t *stages = json_object_get(doc, "stages"); /* absent or empty in entries built before it was kept */
    for (int s = 0; s < HB_STAGE_COUNT; s++) {
        json_t *value = json_object_get(stages, hb_build_stage_name((hb_build_stage)s));
        if (json_is_number(value))
            out->stages.seconds[s] = json_number_value(value), out->stages.known = 1;
    }
    out->peak_rss_mib = json_number_value(json_object_get(doc, "peak_rss_mib"));
    /* outcomes written before the field: a timeout is known by its text */
    out->timed_out = json_is_true(json_object_get(doc, "timed_out")) || strncmp(out->first_error, "timed out", 9) == 0;
    json_decref(doc);
    return HB_OK;
}
