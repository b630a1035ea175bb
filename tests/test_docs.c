/* The docs' worked example runs as written: docs/candidates.md's shell block
 * ("Worked example"), taken from the page itself, run from the repository's
 * top folder.  With a GPU the run must pass; without one the build steps must
 * succeed and the run must stop with exit 5 and say why. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* The first ```sh block after `heading` in `page`, into `out`. */
static void extract_block(const char *page, const char *heading, char *out, size_t size)
{
    FILE *f = fopen(page, "r");
    assert_non_null(f);
    char line[1024];
    int state = 0; /* 0: before the heading, 1: before the block, 2: in it */
    size_t used = 0;
    out[0] = '\0';
    while (state < 3 && fgets(line, sizeof line, f)) {
        if (state == 0 && !strncmp(line, heading, strlen(heading)))
            state = 1;
        else if (state == 1 && !strcmp(line, "```sh\n"))
            state = 2;
        else if (state == 2 && !strcmp(line, "```\n"))
            state = 3;
        else if (state == 2) {
            assert_true(used + strlen(line) < size);
            used += (size_t)snprintf(out + used, size - used, "%s", line);
        }
    }
    fclose(f);
    if (state != 3)
        fail_msg("no complete ```sh block after '%s' in %s", heading, page);
}

/* The one folder `mktemp -d` made under `parent`. */
static void find_work_dir(const char *parent, char *out, size_t size)
{
    DIR *d = opendir(parent);
    assert_non_null(d);
    out[0] = '\0';
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, "tmp.", 4))
            snprintf(out, size, "%s/%s", parent, e->d_name);
    closedir(d);
    if (!out[0])
        fail_msg("the example made no folder under %s", parent);
}

static void test_docs_worked_example(void **state)
{
    (void)state;
    char block[8192], dir[512], script[700], log[700], command[2400], work[1024], path[1400];
    extract_block("docs/candidates.md", "## Worked example", block, sizeof block);
    hb_test_make_temp_dir("hb-docs", dir, sizeof dir);
    snprintf(script, sizeof script, "%s/example.sh", dir);
    snprintf(log, sizeof log, "%s/example.log", dir);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs(block, f);
    fclose(f);
    /* As a reader runs it: from the top folder, nvcc on PATH (the toolkit's
     * bin added where the environment lacks it), mktemp -d under our folder. */
    const char *cuda = getenv("CUDA_HOME");
    snprintf(command, sizeof command, "TMPDIR='%s' PATH=\"$PATH:%s/bin\" bash -e '%s' >'%s' 2>&1", dir,
             cuda && *cuda ? cuda : "/usr/local/cuda", script, log);
    int rc = system(command);
    int status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;

    find_work_dir(dir, work, sizeof work);
    snprintf(path, sizeof path, "%s/manifest.json", work);
    hb_manifest manifest;
    assert_int_equal(hb_manifest_load(path, &manifest), HB_OK); /* the cubin it names was built */
    assert_int_equal(manifest.n_files, 1);
    FILE *cubin = fopen(manifest.files[0].path, "rb");
    assert_non_null(cubin);
    fclose(cubin);
    if (hb_test_gpu_ready()) {
        if (status != 0)
            fail_msg("the worked example exited %d on a GPU; its log is %s", status, log);
        assert_true(hb_test_file_contains(log, "verdict: pass"));
    } else {
        if (status != HB_ERR_CUDA)
            fail_msg("without a GPU the worked example should stop with exit 5, got %d; its log is %s", status, log);
        assert_true(hb_test_file_contains(log, "no usable CUDA GPU"));
    }
    hb_test_remove_tree(dir);
}

hb_test_list hb_docs_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_worked_example),
    };
    return HB_TEST_LIST(tests);
}
