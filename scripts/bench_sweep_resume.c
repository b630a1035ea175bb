/* scripts/bench_sweep_resume.sh's generator: a finished sweep folder of the
 * paper's 1000 configurations in two modes (2000 items, 11 rows each), as
 * the sweep writes it (plan.json, summary.csv, journal.jsonl), with
 * synthetic figures; the script then times `hgemm-bench sweep --resume` on
 * it, which has nothing left to run.  A benchmark, not a test.
 * usage: bench-sweep-resume FOLDER CANDIDATE */
#include <stdio.h>
#include <string.h>

#include "bench/core/version.h"
#include "bench/result/baseline_registry.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_store.h"

static hb_plan_file file;
static hb_config_result result;

static void fill_result(size_t item)
{
    hb_plan_item it = hb_plan_item_at(&file.plan, item);
    hb_config_result_init(&result, &file.plan.configs[it.config]);
    result.timing.mode = it.mode;
    result.measured = 1;
    result.count = 11;
    for (size_t p = 1; p < result.count; p++) {
        snprintf(result.participants[p].name, sizeof result.participants[p].name, "baseline-%zu", p);
        result.participants[p].speedup_event.geomean = 0.01 * (double)(item % 97);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s FOLDER CANDIDATE\n", argv[0]);
        return 2;
    }
    hb_plan_grid_paper(&file.plan);
    hb_plan_set_modes(&file.plan, "offline,server");
    file.shard = (hb_shard){0, 1};
    snprintf(file.harness_commit, sizeof file.harness_commit, "%s", hb_harness_commit());
    snprintf(file.created_utc, sizeof file.created_utc, "2026-11-23T00:00:00Z");
    snprintf(file.command_line, sizeof file.command_line, "bench-sweep-resume");
    char *words[] = {"--candidate", argv[2], "--seed", "1", "--modes", "offline,server"};
    if (hb_plan_file_set_words(&file, words, 6) != HB_OK)
        return 1;
    hb_plan_file_identify(&file);
    static hb_sweep_store store;
    if (hb_plan_file_write(argv[1], &file) != HB_OK || hb_sweep_store_create(&store, argv[1], &file.plan) != HB_OK)
        return 1;
    for (size_t item = 0; item < hb_plan_item_count(&file.plan); item++) {
        fill_result(item);
        hb_journal_entry entry = {.item = item, .mode = hb_plan_item_at(&file.plan, item).mode, .device = 0};
        if (hb_sweep_store_append(&store, file.sweep_id, "fp32", &result, &entry) != HB_OK)
            return 1;
    }
    hb_sweep_store_close(&store);
    return 0;
}
