#include "baselines/cublaslt_baselines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/acc_class_types.h"
#include "baselines/autotune_cache.h"
#include "baselines/baseline_ops.h"
#include "baselines/cublaslt_autotune.h"
#include "baselines/cublaslt_matmul.h"
#include "bench/core/clock.h"
#include "bench/gpu/cuda_check.h"

typedef struct lt_baseline {
    hb_lt_matmul mm;
    cublasLtMatmulAlgo_t algo; /* chosen once, before any timing */
} lt_baseline;

static hb_status lt_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    lt_baseline *b = self->impl;
    const uint16_t *b_operand = b->mm.b_source == HB_B_COL ? io->b_col : io->b;
    cublasStatus_t status = hb_lt_matmul_run(&b->mm, &b->algo, io->a, b_operand, io->c, stream);
    if (status != CUBLAS_STATUS_SUCCESS)
        return hb_fail(HB_ERR_CUDA, "%s: cublasLtMatmul failed: %s", self->name, hb_cublas_status_name(status));
    return HB_OK;
}

static void lt_destroy(hb_participant *self)
{
    lt_baseline *b = self->impl;
    if (!b)
        return;
    hb_lt_matmul_destroy(&b->mm);
    free(b);
    self->impl = NULL;
}

static const hb_participant_ops lt_ops = {hb_baseline_no_op, hb_baseline_poison_output, lt_launch, hb_baseline_no_op,
                                          lt_destroy, NULL};

/* Listing 7: the heuristic's top result. */
static hb_status choose_heuristic(lt_baseline *b, hb_algo_record *record)
{
    static cublasLtMatmulHeuristicResult_t results[HB_LT_MAX_ALGOS];
    int count = 0;
    HB_TRY(hb_lt_matmul_heuristic(&b->mm, HB_LT_MAX_ALGOS, results, &count));
    b->algo = results[0].algo;
    snprintf(record->source, sizeof record->source, "heuristic");
    record->rank = 0;
    record->heuristic_results = count;
    return HB_OK;
}

/* Where `algo` stands among this run's heuristic results (-1: not among
 * them), and how many there are. */
static hb_status heuristic_rank(lt_baseline *b, const cublasLtMatmulAlgo_t *algo, hb_algo_record *record)
{
    static cublasLtMatmulHeuristicResult_t results[HB_LT_MAX_ALGOS];
    int count = 0;
    HB_TRY(hb_lt_matmul_heuristic(&b->mm, HB_LT_MAX_ALGOS, results, &count));
    record->heuristic_results = count;
    record->rank = -1;
    for (int i = 0; i < count && record->rank < 0; i++)
        if (memcmp(&results[i].algo, algo, sizeof *algo) == 0)
            record->rank = i;
    return HB_OK;
}

static void make_key(const hb_lt_baseline_spec *spec, const hb_device_info *device, hb_autotune_key *key)
{
    hb_autotune_key_make(device, spec->acc, spec->b_layout, spec->workspace_bytes, spec->m, spec->n, spec->k, key);
}

/* The cache's answer, if it has one the library still accepts. */
static hb_status try_cache(lt_baseline *b, const hb_autotune_key *key, const char *path, hb_algo_record *record,
                           int *found)
{
    hb_autotune_entry entry;
    HB_TRY(hb_autotune_cache_lookup(path, key, &entry, found));
    if (!*found)
        return HB_OK;
    cublasLtMatmulAlgo_t algo;
    memcpy(algo.data, entry.algo, sizeof algo.data);
    size_t needed = 0;
    if (hb_lt_matmul_check_algo(&b->mm, &algo, &needed) != HB_OK) {
        hb_warn("the cached cuBLASLt choice for %s M=%ld N=%ld K=%ld in %s is rejected by this library; searching "
                "again",
                key->layout, key->m, key->n, key->k, path);
        *found = 0;
        return HB_OK;
    }
    b->algo = algo;
    snprintf(record->source, sizeof record->source, "cache");
    record->search_s = entry.search_s;
    record->search_median_us = entry.median_us;
    return heuristic_rank(b, &algo, record);
}

/* Saves a fresh choice; a cache that cannot be written costs the next run a
 * search, never this run its result, so it is a warning. */
static void save_choice(const lt_baseline *b, const hb_autotune_key *key, const char *path,
                        const hb_algo_record *record)
{
    hb_autotune_entry entry;
    memset(&entry, 0, sizeof entry);
    entry.key = *key;
    memcpy(entry.algo, b->algo.data, sizeof entry.algo);
    hb_algo_text(record, entry.algo_text, sizeof entry.algo_text);
    entry.median_us = record->search_median_us;
    entry.candidates = record->heuristic_results;
    entry.search_s = record->search_s;
    hb_utc_now(entry.created, sizeof entry.created);
    if (hb_autotune_cache_store(path, &entry) != HB_OK)
        hb_warn("the autotune choice for %s M=%ld N=%ld K=%ld was not saved in %s; the next run searches again",
                key->layout, key->m, key->n, key->k, path);
}

/* Listing 8, through the cache. */
static hb_status choose_autotune(lt_baseline *b, const hb_lt_baseline_spec *spec, const hb_lt_tuning *tuning,
                                 cudaStream_t stream, hb_algo_record *record)
{
    hb_autotune_key key;
    make_key(spec, tuning->device, &key);
    const int cached = tuning->cache_path && tuning->cache_path[0];
    int found = 0;
    if (cached && !tuning->retune)
        HB_TRY(try_cache(b, &key, tuning->cache_path, record, &found));
    if (found)
        return HB_OK;
    if (!tuning->search) {
        HB_TRY(choose_heuristic(b, record));
        snprintf(record->source, sizeof record->source, "fallback");
        return HB_OK;
    }
    hb_autotune_search search;
    HB_TRY(hb_autotune_search_run(&b->mm, tuning->rng, stream, &b->algo, &search));
    snprintf(record->source, sizeof record->source, "search");
    record->rank = search.winner;
    record->heuristic_results = search.candidates;
    record->search_s = search.seconds;
    record->search_median_us = search.winner_median_us;
    if (cached) {
        HB_TRY(hb_lt_algo_describe(&b->algo, record));
        save_choice(b, &key, tuning->cache_path, record);
    }
    return HB_OK;
}

static void describe(const hb_lt_baseline_spec *spec, hb_participant *out)
{
    hb_participant_desc *d = &out->desc;
    snprintf(d->compute_type, sizeof d->compute_type, "%s", hb_compute_type_name(spec->acc));
    snprintf(d->scale_type, sizeof d->scale_type, "%s", hb_scale_type_name(spec->acc));
    snprintf(d->algorithm, sizeof d->algorithm, "cublasLtMatmul/%s", d->algo.source);
    d->workspace_bytes = spec->workspace_bytes;
    d->b_layout = spec->b_layout;
}

static hb_status set_up(lt_baseline *b, const hb_lt_baseline_spec *spec, const hb_lt_tuning *tuning,
                        cudaStream_t stream, hb_algo_record *record)
{
    const double start = hb_now_s();
    HB_TRY(hb_lt_matmul_create(&b->mm, spec->acc, spec->b_layout, spec->m, spec->n, spec->k,
                               spec->workspace_bytes));
    if (spec->strategy == HB_LT_HEURISTIC)
        HB_TRY(choose_heuristic(b, record));
    else
        HB_TRY(choose_autotune(b, spec, tuning, stream, record));
    HB_TRY(hb_lt_matmul_check_algo(&b->mm, &b->algo, &record->needed_workspace_bytes));
    if (!record->known) /* a fresh search described it already, for the cache */
        HB_TRY(hb_lt_algo_describe(&b->algo, record));
    record->setup_s = hb_now_s() - start;
    return HB_OK;
}

hb_status hb_cublaslt_baseline_create(const hb_lt_baseline_spec *spec, const hb_lt_tuning *tuning,
                                      cudaStream_t stream, hb_participant *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", spec->name);
    lt_baseline *b = calloc(1, sizeof *b);
    if (!b)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory creating baseline %s", out->name);
    out->ops = &lt_ops;
    out->impl = b;
    hb_status status = set_up(b, spec, tuning, stream, &out->desc.algo);
    if (status != HB_OK) {
        char cause[512];
        snprintf(cause, sizeof cause, "%s", hb_last_error());
        hb_fail(status, "baseline %s, M=%ld N=%ld K=%ld: %s", out->name, spec->m, spec->n, spec->k, cause);
        lt_destroy(out);
        return status;
    }
    describe(spec, out);
    return HB_OK;
}
