#define _POSIX_C_SOURCE 200809L
/* The thread watch in a real evaluation (bench/core/thread_watch.h): an
 * honest launcher, whose host code starts no thread, gets no finding
 * `thread`, so that whatever threads the CUDA driver, CUPTI, NVML and the
 * harness's helpers start while a launcher is evaluated are not taken for
 * its own.  Where one is, the finding's line names it. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* The finding named `name` among verdict.json's first configuration's, or NULL. */
static json_t *finding(json_t *verdict, const char *name)
{
    json_t *config = json_array_get(json_object_get(verdict, "configs"), 0);
    json_t *findings = json_object_get(json_object_get(config, "conduct"), "findings");
    for (size_t i = 0; i < json_array_size(findings); i++) {
        json_t *f = json_array_get(findings, i);
        const char *n = json_string_value(json_object_get(f, "finding"));
        if (n && !strcmp(n, name))
            return f;
    }
    return NULL;
}

static void test_gpu_honest_launcher_leaves_no_thread(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], args[2048], verdict_path[700];
    hb_test_make_temp_dir("hb-thread-watch", out, sizeof out);
    snprintf(verdict_path, sizeof verdict_path, "%s/verdict.json", out);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/sample_mma_launcher --mnk 256,256,256 --warmup-s 0.5 --time-s 2 "
             "--autotune-cache none --no-autotune-search --verdict %s",
             hb_test_build_dir(), verdict_path);
    assert_int_equal(hb_test_run_bench("run", args, out), 0);
    json_error_t error;
    json_t *v = json_load_file(verdict_path, 0, &error);
    if (!v)
        fail_msg("no verdict.json: %s", error.text);
    json_t *config = json_array_get(json_object_get(v, "configs"), 0);
    assert_true(json_is_true(json_object_get(json_object_get(config, "conduct"), "traced")));
    json_t *thread = finding(v, "thread");
    if (thread)
        fail_msg("an honest launcher got the finding thread: %s",
                 json_string_value(json_object_get(thread, "detail")));
    json_decref(v);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_thread_watch_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_honest_launcher_leaves_no_thread),
    };
    return HB_TEST_LIST(tests);
}
