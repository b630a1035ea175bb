/* The seeds every case copies, made by the harness's own writers: sweep
 * folders and a run's folder (tests/result_fixture.c over the sweep store and
 * the CSV writer), a published CSV (`report --out`), the sample candidates
 * as `make` built them, and what `report --out` and `compare --out` write of
 * the unharmed seeds (the outputs a case's are held to). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/figures.h"
#include "tests/fuzz/fuzz.h"
#include "tests/result_fixture.h"

#define SIZES 6 /* configurations of each sweep: 12 items in two modes */

static int seed_path(char *out, const char *root, const char *name)
{
    return (size_t)snprintf(out, FUZZ_PATH, "%s/%s", root, name) < FUZZ_PATH ? 0 : -1;
}

static int fail(const char *what)
{
    fprintf(stderr, "hgemm-fuzz: cannot make the corpus: %s\n", what);
    return -1;
}

/* The sweep in four folders: whole, its two shards, and half done. */
static int make_sweeps(fuzz_corpus *c, const char *manifest)
{
    static hb_fixture fixture;
    const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    if (hb_fixture_make(2025, SIZES, modes, 2, 0.25, &fixture) != HB_OK)
        return fail("the fixture's configurations");
    const char *gpu = "NVIDIA H100 80GB HBM3 (fuzz corpus)";
    int failed = seed_path(c->sweep, c->root, "sweep") || seed_path(c->shard[0], c->root, "shard-0") ||
                 seed_path(c->shard[1], c->root, "shard-1") || seed_path(c->partial, c->root, "partial") ||
                 hb_fixture_write_sweep(&fixture, c->sweep, manifest, 0, 1, 2 * SIZES, gpu) != HB_OK ||
                 hb_fixture_write_sweep(&fixture, c->shard[0], manifest, 0, 2, 2 * SIZES, gpu) != HB_OK ||
                 hb_fixture_write_sweep(&fixture, c->shard[1], manifest, 1, 2, 2 * SIZES, gpu) != HB_OK ||
                 hb_fixture_write_sweep(&fixture, c->partial, manifest, 0, 1, SIZES, gpu) != HB_OK;
    hb_fixture_free(&fixture);
    c->sweep_items = 2 * SIZES;
    return failed ? fail("the sweep folders") : 0;
}

static int make_run(fuzz_corpus *c)
{
    static hb_fixture fixture;
    const hb_mode modes[] = {HB_MODE_OFFLINE};
    if (hb_fixture_make(7, SIZES, modes, 1, 0.25, &fixture) != HB_OK)
        return fail("the run's configurations");
    int failed = seed_path(c->run, c->root, "run") ||
                 hb_fixture_write_run(&fixture, 0, fixture.count, c->run, "NVIDIA H100 80GB HBM3 (fuzz corpus)");
    hb_fixture_free(&fixture);
    return failed ? fail("the run folder") : 0;
}

/* `report --out` writes the sweep's speedups in CUDA-L2's layout. */
static int make_published(fuzz_corpus *c)
{
    char made[FUZZ_PATH + 32];
    fuzz_outcome outcome = {0};
    if (seed_path(c->report_sweep, c->root, "report") || seed_path(c->published, c->root, "published_offline.csv"))
        return fail("a path is too long");
    const char *argv[] = {"hgemm-bench", "report", c->sweep, "--out", c->report_sweep, NULL};
    if (fuzz_command(c->root, argv, &outcome) != 0)
        return fail("report --out of the sweep failed (see err.txt in the corpus folder)");
    snprintf(made, sizeof made, "%s/speedup_offline.csv", c->report_sweep);
    size_t size;
    char *text = fuzz_read_file(made, &size);
    int failed = !text || fuzz_write_file(c->published, text, size) != 0;
    free(text);
    return failed ? fail("the published CSV") : 0;
}

/* One `hgemm-bench` command line of the corpus, which must succeed. */
static int corpus_command(const fuzz_corpus *c, const char *const *argv)
{
    fuzz_outcome outcome = {0};
    return fuzz_command(c->root, argv, &outcome) == 0 ? 0 : -1;
}

/* What report and compare write of the run and of the sweep (on the wall clock too). */
static int make_references(fuzz_corpus *c)
{
    if (seed_path(c->report_run, c->root, "report-run") || seed_path(c->compare_run, c->root, "compare-run") ||
        seed_path(c->compare_sweep, c->root, "compare-sweep") ||
        seed_path(c->report_sweep_wall, c->root, "report-wall") ||
        seed_path(c->compare_sweep_wall, c->root, "compare-sweep-wall"))
        return fail("a path is too long");
    const char *report_run[] = {"hgemm-bench", "report", c->run, "--out", c->report_run, NULL};
    const char *report_wall[] = {"hgemm-bench", "report", c->sweep, "--timer", "wall", "--out",
                                 c->report_sweep_wall, NULL};
    const char *compare_run[] = {"hgemm-bench", "compare", c->run, "--published", c->published, "--out",
                                 c->compare_run, NULL};
    const char *compare_sweep[] = {"hgemm-bench", "compare", c->sweep, "--published", c->published, "--out",
                                   c->compare_sweep, NULL};
    const char *compare_wall[] = {"hgemm-bench", "compare", c->sweep, "--published", c->published, "--timer", "wall",
                                  "--out", c->compare_sweep_wall, NULL};
    if (corpus_command(c, report_run) || corpus_command(c, report_wall) || corpus_command(c, compare_run) ||
        corpus_command(c, compare_sweep) || corpus_command(c, compare_wall))
        return fail("report or compare --out of a seed failed (see err.txt in the corpus folder)");
    return 0;
}

/* The checks of what a case writes (fuzz_outputs.c) pass on what the
 * harness writes of unharmed seeds, figures included: else they would
 * blame every case for the harness's own text. */
static int check_the_checks(fuzz_corpus *c)
{
    char plots[FUZZ_PATH];
    if (seed_path(plots, c->root, "report-plots"))
        return fail("a path is too long");
    const char *report_plots[] = {"hgemm-bench", "report", c->sweep, "--out", plots, "--plots", NULL};
    if (hb_gnuplot_available() && corpus_command(c, report_plots))
        return fail("report --plots of the sweep failed (see err.txt in the corpus folder)");
    const char *outputs[] = {c->report_sweep, c->report_sweep_wall, c->report_run, plots,
                             c->compare_run, c->compare_sweep, c->compare_sweep_wall};
    for (size_t i = 0; i < FUZZ_COUNT(outputs); i++) {
        fuzz_outcome outcome = {0};
        fuzz_check_text(outputs[i], FUZZ_CHECK_HOSTILE | FUZZ_CHECK_FINITE, &outcome);
        if (!outcome.failed && fuzz_exists(outputs[i]))
            fuzz_check_listed(outputs[i], i < 4 ? "report" : "compare", &outcome);
        if (outcome.failed)
            return fail(outcome.detail);
    }
    fuzz_remove_tree(plots);
    return 0;
}

static int make_candidates(fuzz_corpus *c, const char *candidates)
{
    char from[FUZZ_PATH + 32];
    if (seed_path(c->cubin_set, c->root, "cubin-set") || seed_path(c->launcher_set, c->root, "launcher-set"))
        return fail("a path is too long");
    snprintf(from, sizeof from, "%s/sample_mma", candidates);
    if (fuzz_copy_tree(from, c->cubin_set) != 0)
        return fail("no sample_mma in the candidates folder: run make first");
    snprintf(from, sizeof from, "%s/sample_mma_launcher", candidates);
    if (fuzz_copy_tree(from, c->launcher_set) != 0)
        return fail("no sample_mma_launcher in the candidates folder: run make first");
    return 0;
}

/* --mnk-file: the sweep's sizes in both spellings, a comment and a blank line. */
static int make_mnk_file(fuzz_corpus *c)
{
    if (seed_path(c->mnk_file, c->root, "plan.txt"))
        return fail("a path is too long");
    const char text[] = "# sizes\n64,64,64\n128_256_512\n\n4096,4096,4096  # large\n16384_64_12288\n";
    return fuzz_write_file(c->mnk_file, text, sizeof text - 1) == 0 ? 0 : fail("the --mnk-file");
}

int fuzz_make_corpus(const char *work, const char *candidates, fuzz_corpus *c)
{
    memset(c, 0, sizeof *c);
    char manifest[FUZZ_PATH + 32], absolute[PATH_MAX];
    if (seed_path(c->root, work, "seed") || mkdir(c->root, 0755) != 0)
        return fail("the seed folder");
    if (make_candidates(c, candidates))
        return -1;
    snprintf(manifest, sizeof manifest, "%s/manifest.json", c->cubin_set);
    if (!realpath(manifest, absolute)) /* a resumed sweep checks its candidate from any folder */
        return fail("the candidate's manifest");
    return make_sweeps(c, absolute) || make_run(c) || make_published(c) || make_references(c) ||
                   check_the_checks(c) || make_mnk_file(c)
               ? -1
               : 0;
}
