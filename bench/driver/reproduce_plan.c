#define _POSIX_C_SOURCE 200809L /* strdup */
#include "bench/driver/reproduce_plan.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/input_file.h"
#include "bench/core/shuffle.h"
#include "bench/sweep/plan_source.h"

/* The configuration of a set's file, as the format names its files; 0 for
 * any other name and for sizes past what a plan holds. */
static int file_config(const hb_import_format *format, const char *name, hb_mnk *out)
{
    hb_mnk mnk;
    if (!format->config_of_file(name, &mnk) || mnk.m > HB_MAX_DIM || mnk.n > HB_MAX_DIM || mnk.k > HB_MAX_DIM)
        return 0;
    *out = mnk;
    return 1;
}

/* Every M_N_K.cu of the folder, in the paper grid's order (M slowest). */
static int by_size_order(const void *a, const void *b)
{
    const hb_mnk *x = a, *y = b;
    if (x->m != y->m)
        return x->m < y->m ? -1 : 1;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

static hb_status set_files(const hb_import_format *format, const char *dir, hb_sweep_plan *files)
{
    DIR *d = opendir(dir);
    if (!d)
        return hb_fail(HB_ERR_USAGE, "reproduce: cannot read the set's folder %s: %s", dir, strerror(errno));
    struct dirent *e;
    hb_status status = HB_OK;
    hb_mnk mnk;
    while (status == HB_OK && (e = readdir(d)) != NULL)
        if (file_config(format, e->d_name, &mnk))
            status = hb_plan_add(files, mnk, dir);
    closedir(d);
    qsort(files->configs, files->n_configs, sizeof files->configs[0], by_size_order);
    return status;
}

static int has_file(const hb_sweep_plan *files, hb_mnk mnk)
{
    return bsearch(&mnk, files->configs, files->n_configs, sizeof mnk, by_size_order) != NULL;
}

/* The configurations in a seeded random order: a sweep runs its plan in
 * order, so a reproduction stopped early (a time limit, a kill not resumed)
 * has measured a random part of the sample, not its smallest sizes (seen on
 * an H100: a sweep in grid order stopped at 144 of 200 had none with M above
 * 8192).  Both modes of a configuration stay neighbours; the tables sort by
 * size whatever the order. */
static hb_status shuffle_configs(hb_sweep_plan *plan, uint64_t seed)
{
    size_t n = plan->n_configs;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    hb_mnk *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!order || !copy) {
        free(order);
        free(copy);
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    }
    hb_rng rng;
    hb_rng_seed(&rng, seed ^ 0x5265706c61ULL); /* not the sample's own stream of the same seed */
    hb_shuffle_order(&rng, order, n);
    memcpy(copy, plan->configs, n * sizeof *copy);
    for (size_t i = 0; i < n; i++)
        plan->configs[i] = copy[order[i]];
    free(order);
    free(copy);
    return HB_OK;
}

static int plan_flags_given(const hb_run_options *run)
{
    return run->grid || run->mnk_file || run->m_list || run->n_configs;
}

static void describe(const hb_run_options *run, hb_repro_plan *out)
{
    const char *from = run->grid ? "--grid paper" : run->mnk_file ? "--mnk-file" : run->m_list ? "--m/--n/--k"
                                                                                                : "every file of the set";
    if (run->sample)
        snprintf(out->source, sizeof out->source, "%s, %s files of it in the set; a stratified sample of %d, seed %llu",
                 from, plan_flags_given(run) ? "the" : "all", run->sample, (unsigned long long)run->seed);
    else
        snprintf(out->source, sizeof out->source, "%s%s", from, plan_flags_given(run) ? ", the configurations with a file in the set" : "");
}

hb_status hb_repro_plan_make(const hb_run_options *run, const hb_import_format *format, const char *kernels_dir,
                             hb_repro_plan *out)
{
    static hb_sweep_plan files; /* large: HB_MAX_CONFIGS configurations */
    memset(&files, 0, sizeof files);
    memset(out, 0, sizeof *out);
    HB_TRY(set_files(format, kernels_dir, &files));
    out->set_files = files.n_configs;
    if (files.n_configs == 0)
        return hb_fail(HB_ERR_USAGE, "reproduce: %s holds no %s files: is it %s?", kernels_dir, format->file_pattern,
                       format->folder_hint);
    hb_sweep_plan *plan = &out->plan;
    if (plan_flags_given(run)) {
        HB_TRY(hb_plan_from_options(run, "reproduce", plan));
        out->from_flags = plan->n_configs;
        size_t kept = 0;
        for (size_t i = 0; i < plan->n_configs; i++)
            if (has_file(&files, plan->configs[i]))
                plan->configs[kept++] = plan->configs[i];
        out->without_file = plan->n_configs - kept;
        plan->n_configs = kept;
    } else {
        *plan = files;
        out->from_flags = files.n_configs;
    }
    if (plan->n_configs == 0)
        return hb_fail(HB_ERR_USAGE, "reproduce: none of the plan's %zu configurations has a file in %s",
                       out->from_flags, kernels_dir);
    if (run->sample && (size_t)run->sample < plan->n_configs) {
        out->sampled_from = plan->n_configs;
        hb_plan_sample(plan, (size_t)run->sample, run->seed);
    }
    HB_TRY(shuffle_configs(plan, run->seed));
    HB_TRY(hb_plan_set_modes(plan, run->modes ? run->modes : "offline,server"));
    describe(run, out);
    return HB_OK;
}

/* The file's text: one M,N,K a line, after a comment saying what it is. */
static char *plan_text(const hb_repro_plan *p, const hb_shard *shard)
{
    size_t size = 256 + p->plan.n_configs * 64, used = 0;
    char *text = malloc(size);
    if (!text)
        return NULL;
    used += (size_t)snprintf(text, size, "# reproduce's plan: %s\n", p->source);
    size_t modes = p->plan.n_modes;
    for (size_t c = 0; c < p->plan.n_configs; c++) {
        int held = 0;
        for (size_t m = 0; m < modes; m++)
            held |= hb_shard_holds(shard, c * modes + m);
        if (held)
            used += (size_t)snprintf(text + used, size - used, "%ld,%ld,%ld\n", p->plan.configs[c].m,
                                     p->plan.configs[c].n, p->plan.configs[c].k);
    }
    return text;
}

static hb_status write_whole(const char *path, const char *text)
{
    return hb_out_file_write(path, text, strlen(text));
}

hb_status hb_repro_plan_write(const hb_repro_plan *p, const hb_shard *shard, const char *path)
{
    char *text = plan_text(p, shard);
    if (!text)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    char *old = NULL;
    size_t old_size = 0;
    hb_status status = hb_input_read(path, "reproduce's plan", 1u << 20, HB_ERR_BAD_RESULTS, 1, &old, &old_size);
    if (status == HB_OK && !old)
        status = write_whole(path, text);
    else if (status == HB_OK && strcmp(old, text) != 0) /* the same text: a resumed reproduction */
        status = hb_fail(HB_ERR_USAGE,
                         "reproduce: %s was written for another plan (other flags, set, seed or shard): give a new "
                         "--out, or the flags of that reproduction",
                         path);
    free(old);
    free(text);
    return status;
}
