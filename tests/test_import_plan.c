/* The import's plan (docs/importer.md, "Building a whole set"): the
 * builds' order, costliest first, from the build history and the format's
 * model; the default -j from cores and memory; nvcc's stages read from its
 * --time table; the history written and read back.  CPU only: no nvcc runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/import/build_history.h"
#include "bench/import/build_plan.h"
#include "bench/import/build_stages.h"
#include "bench/import/build_width.h"
#include "bench/import/cuda_l2/l2_build_cost.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static hb_build_record record(char digit, const char *kind, double seconds, double model_s)
{
    hb_build_record r;
    memset(&r, 0, sizeof r);
    memset(r.source_sha256, digit, HB_SHA256_HEX - 1);
    snprintf(r.kind, sizeof r.kind, "%s", kind);
    r.seconds = seconds;
    r.model_s = model_s;
    return r;
}

static void sha_of(char digit, char out[HB_SHA256_HEX])
{
    memset(out, digit, HB_SHA256_HEX - 1);
    out[HB_SHA256_HEX - 1] = '\0';
}

/* A file whose earlier build took 90 s starts before one that took 10 s,
 * whatever the model says of them and whatever the set's order. */
static void import_plan_starts_the_recorded_slowest_first(void **state)
{
    (void)state;
    const hb_build_record history[] = {record('a', "one-kernel", 10, 10), record('b', "one-kernel", 90, 10)};
    char a[HB_SHA256_HEX], b[HB_SHA256_HEX];
    sha_of('a', a), sha_of('b', b);
    hb_prediction_basis basis;
    double predicted[2];
    predicted[0] = hb_build_predict_s(history, 2, a, "one-kernel", 50, &basis); /* the set's first file */
    assert_int_equal(basis, HB_PREDICTED_BY_FILE);
    predicted[1] = hb_build_predict_s(history, 2, b, "one-kernel", 5, &basis);
    assert_int_equal(basis, HB_PREDICTED_BY_FILE);
    assert_true(predicted[0] == 10.0 && predicted[1] == 90.0);
    size_t order[2];
    hb_build_order(predicted, 2, order);
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 0);
}

/* The same file built twice: its later build is the one that counts. */
static void import_plan_takes_a_files_latest_build(void **state)
{
    (void)state;
    const hb_build_record history[] = {record('a', "adapter", 300, 100), record('a', "adapter", 120, 100)};
    char a[HB_SHA256_HEX];
    sha_of('a', a);
    hb_prediction_basis basis;
    assert_true(hb_build_predict_s(history, 2, a, "adapter", 100, &basis) == 120.0);
    assert_int_equal(basis, HB_PREDICTED_BY_FILE);
}

/* Unknown files: the model scaled by the median time/model of earlier builds of their kind, else of every earlier
 * build, else the model alone. */
static void import_plan_scales_the_model_by_earlier_builds(void **state)
{
    (void)state;
    const hb_build_record history[] = {record('a', "adapter", 200, 100), record('b', "adapter", 300, 100),
                                       record('c', "adapter", 250, 100), record('d', "one-kernel", 5, 10)};
    char unknown[HB_SHA256_HEX];
    sha_of('z', unknown);
    hb_prediction_basis basis;
    double adapter = hb_build_predict_s(history, 4, unknown, "adapter", 40, &basis);
    assert_int_equal(basis, HB_PREDICTED_BY_KIND);
    assert_true(fabs(adapter - 100.0) < 1e-9); /* the adapters' median ratio 2.5 x 40 s */
    double cluster = hb_build_predict_s(history, 4, unknown, "cluster", 40, &basis);
    assert_int_equal(basis, HB_PREDICTED_BY_HOST);
    assert_true(fabs(cluster - 90.0) < 1e-9); /* median of 2, 3, 2.5, 0.5 is 2.25 */
    double alone = hb_build_predict_s(NULL, 0, unknown, "cluster", 40, &basis);
    assert_int_equal(basis, HB_PREDICTED_BY_MODEL);
    assert_true(alone == 40.0);
}

/* Longest first; equal predictions keep the set's order. */
static void import_plan_orders_longest_first_and_ties_stably(void **state)
{
    (void)state;
    const double predicted[] = {5, 7, 5, 300, 7, 5, 0};
    size_t order[7];
    hb_build_order(predicted, 7, order);
    const size_t expected[] = {3, 1, 4, 0, 2, 5, 6};
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(order[i], expected[i]);
    hb_build_order(predicted, 0, order); /* nothing to build: nothing touched */
}

/* CUDA-L2's model: a CUTLASS-3 adapter file costs more than a CuTe file of the same size, which costs more than a
 * plain one; a larger file of a kind costs more. */
static void import_plan_cuda_l2_model_ranks_cutlass_first(void **state)
{
    (void)state;
    hb_file_facts adapter = {.kind = "adapter"}, plain = {.kind = "one-kernel"};
    const char *cute = "#include \"cute/tensor.hpp\"\n", *bare = "#include <cuda_fp16.h>\n";
    double a = hb_l2_build_cost_s(cute, 8192, &adapter);
    double c = hb_l2_build_cost_s(cute, 8192, &plain);
    double p = hb_l2_build_cost_s(bare, 8192, &plain);
    assert_true(a > c && c > p && p > 0);
    assert_true(hb_l2_build_cost_s(cute, 60 * 1024, &adapter) > a);
}

/* -j: the cores, as many as the memory available holds at a build's peak; unknown memory leaves the cores. */
static void import_width_from_cores_and_memory(void **state)
{
    (void)state;
    const unsigned long long gib = 1ULL << 30;
    assert_int_equal(hb_build_width(64, 1024 * gib, 8 * gib), 64);
    assert_int_equal(hb_build_width(64, 256 * gib, 8 * gib), 32);
    assert_int_equal(hb_build_width(64, 0, 8 * gib), 64);
    assert_int_equal(hb_build_width(16, 4 * gib, 8 * gib), 1); /* less than one build's worth still builds */
    assert_int_equal(hb_build_width(0, 64 * gib, 8 * gib), 1);
    assert_int_equal(hb_build_width(4096, 0, 8 * gib), 1024); /* the -j option's own bound */
    assert_true(hb_meminfo_available("MemTotal:       32768000 kB\nMemFree:  100 kB\nMemAvailable:   "
                                     "16384000 kB\n") == 16384000ULL * 1024);
    assert_true(hb_meminfo_available("MemTotal:       32768000 kB\n") == 0);
    long cores;
    unsigned long long available;
    hb_host_capacity(&cores, &available);
    assert_true(cores >= 1);
}

/* nvcc --time's table (CUDA 13.0, a CUTLASS-3 file built here) into stages: cicc dominates. */
static const char nvcc_table[] =
    "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n"
    "/k/2048_64_4096.cu , gcc (preprocessing 4) , /k/2048_64_4096.cu  , /tmp/x.cpp4.ii ,  , nvcc , 2324.5259 , ms\n"
    "/k/2048_64_4096.cu , cudafe++ , /tmp/x.cpp4.ii  , /tmp/x.cudafe1.cpp , compute_90a , nvcc , 17693.3184 , ms\n"
    "/k/2048_64_4096.cu , gcc (preprocessing 1) , /k/2048_64_4096.cu  , /tmp/x.cpp1.ii , compute_90a , nvcc , "
    "2217.1101 , ms\n"
    "/k/2048_64_4096.cu , cicc ,  /tmp/x.cpp1.ii  , /tmp/x.ptx , compute_90a , nvcc , 224791.6719 , ms\n"
    "/k/2048_64_4096.cu , ptxas , /tmp/x.ptx  , /tmp/x.cubin , sm_90a , nvcc , 9977.3320 , ms\n"
    "/k/2048_64_4096.cu , fatbinary , /tmp/x.cubin  , /tmp/x.fatbin ,  , nvcc , 49.3020 , ms\n"
    "/k/2048_64_4096.cu , gcc (compiling) ,   , kernel.o , compute_90a , nvcc , 50902.1719 , ms\n"
    " , nvcc (driver) ,  , kernel.o ,  , nvcc , 1.1562 , ms\n";

static void import_stages_from_nvcc_time(void **state)
{
    (void)state;
    hb_build_stages s;
    memset(&s, 0, sizeof s);
    assert_true(hb_build_stages_parse(nvcc_table, strlen(nvcc_table), &s));
    assert_true(s.known);
    assert_true(fabs(s.seconds[HB_STAGE_FRONT_END] - (2.3245259 + 17.6933184 + 2.2171101)) < 1e-6);
    assert_true(fabs(s.seconds[HB_STAGE_CICC] - 224.7916719) < 1e-6);
    assert_true(fabs(s.seconds[HB_STAGE_PTXAS] - 9.977332) < 1e-6);
    assert_true(fabs(s.seconds[HB_STAGE_HOST] - 50.9021719) < 1e-6);
    assert_true(fabs(s.seconds[HB_STAGE_OTHER] - (0.049302 + 0.0011562)) < 1e-6);
    assert_int_equal(hb_build_stages_dominant(&s), HB_STAGE_CICC);
    assert_string_equal(hb_build_stage_name(HB_STAGE_HOST), "host");
    /* a header alone, or rows in another unit, read as no phase */
    memset(&s, 0, sizeof s);
    hb_build_stages_parse(nvcc_table, strcspn(nvcc_table, "\n") + 1, &s);
    assert_false(s.known);
    const char *seconds = "x , cicc , a , b , c , nvcc , 12.5 , s\n";
    hb_build_stages_parse(seconds, strlen(seconds), &s);
    assert_false(s.known);
    assert_int_equal(hb_build_stages_dominant(&s), HB_STAGE_COUNT);
}

/* Two builds appended, a line cut short by a kill after them: the two read back, in order. */
static void import_history_round_trip(void **state)
{
    (void)state;
    char dir[256], path[512], a[HB_SHA256_HEX], b[HB_SHA256_HEX];
    hb_test_make_temp_dir("hb_history", dir, sizeof dir);
    sha_of('a', a), sha_of('b', b);
    hb_build_stages stages = {.seconds = {[HB_STAGE_CICC] = 80}, .known = 1};
    hb_build_history_line line = {a, "64_64_64", "adapter", 7203, 99.5, 100.0, 1, 3388.0, &stages, "Build cuda_13"};
    assert_int_equal(hb_build_history_append(dir, &line), HB_OK);
    line.source_sha256 = b, line.seconds = 12.0, line.kind = "one-kernel", line.stages = NULL;
    assert_int_equal(hb_build_history_append(dir, &line), HB_OK);
    snprintf(path, sizeof path, "%s/%s", dir, HB_BUILD_HISTORY_FILE);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("{\"source_sha256\": \"cc", f);
    fclose(f);
    assert_true(hb_test_file_contains(path, "\"cicc\":80"));
    hb_build_record *records = NULL;
    size_t n = 0;
    assert_int_equal(hb_build_history_read(dir, &records, &n), HB_OK);
    assert_int_equal(n, 2);
    assert_string_equal(records[0].source_sha256, a);
    assert_string_equal(records[0].kind, "adapter");
    assert_true(records[0].seconds == 99.5 && records[0].model_s == 100.0);
    assert_string_equal(records[1].kind, "one-kernel");
    free(records);
    hb_test_remove_tree(dir);
    /* no history: none, and no error */
    assert_int_equal(hb_build_history_read(dir, &records, &n), HB_OK);
    assert_int_equal(n, 0);
    assert_null(records);
}

hb_test_list hb_import_plan_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(import_plan_starts_the_recorded_slowest_first),
        cmocka_unit_test(import_plan_takes_a_files_latest_build),
        cmocka_unit_test(import_plan_scales_the_model_by_earlier_builds),
        cmocka_unit_test(import_plan_orders_longest_first_and_ties_stably),
        cmocka_unit_test(import_plan_cuda_l2_model_ranks_cutlass_first),
        cmocka_unit_test(import_width_from_cores_and_memory),
        cmocka_unit_test(import_stages_from_nvcc_time),
        cmocka_unit_test(import_history_round_trip),
    };
    return HB_TEST_LIST(tests);
}
