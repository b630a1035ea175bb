/* The import formats' table (bench/import/import_formats.c) is the one
 * place a format is named: every row has every operation, `import` and
 * `reproduce` find a format by its name there and refuse another naming
 * the known ones, and the CUDA-L2 row does what the importer did before
 * it was a row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"
#include "bench/import/cuda_l2/cuda_l2_format.h"
#include "bench/import/import_formats.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 2048

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A row's fields, each required (import_format.h), and its data where make puts it. */
static void check_row(const hb_import_format *f)
{
    assert_non_null(f->name);
    assert_true(f->name[0] != '\0');
    assert_ptr_equal(hb_import_format_find(f->name), f); /* names are unique */
    assert_non_null(f->description);
    assert_non_null(f->folder_hint);
    assert_non_null(f->file_pattern);
    assert_non_null(f->set_class);
    assert_non_null(f->config_of_file);
    assert_non_null(f->file_of_config);
    assert_non_null(f->read_file);
    assert_non_null(f->nvcc_flags);
    assert_non_null(f->cutlass_version);
    assert_non_null(f->kernels_noun);
    assert_non_null(f->shim);
    assert_non_null(f->adapter);
    assert_non_null(f->adapter_entry_macro);
    assert_non_null(f->build_cost_s);
    assert_non_null(f->repo_hint);
    assert_non_null(f->sets);
    assert_true(f->n_sets > 0);
    for (size_t i = 0; i < f->n_sets; i++) {
        const hb_published_set *s = &f->sets[i];
        assert_true(s->name && s->folder && s->tuned_for && s->native_arch);
        assert_true(s->acc && (!strcmp(s->acc, "fp32") || !strcmp(s->acc, "fp16")));
        assert_true(s->sm >= 50);
    }
    assert_non_null(f->set_files_dir);
    assert_non_null(f->published_results);
    /* a configuration's file is named back to that configuration */
    char file[128];
    hb_mnk back = {0, 0, 0};
    f->file_of_config((hb_mnk){4096, 1024, 64}, file, sizeof file);
    assert_true(f->config_of_file(file, &back));
    assert_true(back.m == 4096 && back.n == 1024 && back.k == 64);
    /* make copies the format's shim and adapter into the importer's data */
    const char *build = getenv("HB_BUILD");
    char path[PATH];
    snprintf(path, sizeof path, "%s/import/%s", build && *build ? build : "build", f->shim);
    assert_true(exists(path));
    snprintf(path, sizeof path, "%s/import/%s", build && *build ? build : "build", f->adapter);
    assert_true(exists(path));
}

static void test_import_formats_every_row_has_every_operation(void **state)
{
    (void)state;
    size_t rows = 0;
    for (size_t i = 0; hb_import_formats[i]; i++, rows++)
        check_row(hb_import_formats[i]);
    assert_true(rows >= 1);
    assert_ptr_equal(hb_import_format_find("cuda-l2"), &hb_cuda_l2_format);
    assert_null(hb_import_format_find("nosuch"));
    assert_null(hb_import_format_find(NULL));
}

static void test_import_format_lookup_names_the_known_ones(void **state)
{
    (void)state;
    const hb_import_format *f = NULL;
    hb_diag_set_quiet(1);
    assert_int_equal(hb_import_format_lookup("import", "cuda-l2", &f), HB_OK);
    assert_ptr_equal(f, &hb_cuda_l2_format);
    assert_int_equal(hb_import_format_lookup("import", "nosuch", &f), HB_ERR_USAGE);
    assert_null(f);
    assert_non_null(strstr(hb_last_error(), "no import format 'nosuch'"));
    assert_non_null(strstr(hb_last_error(), "cuda-l2 (CUDA-L2's"));
    assert_null(strstr(hb_last_error(), "did you mean"));
    assert_int_equal(hb_import_format_lookup("reproduce", "cuda-l3", &f), HB_ERR_USAGE);
    assert_non_null(strstr(hb_last_error(), "reproduce: no import format 'cuda-l3' (did you mean cuda-l2?)"));
    assert_int_equal(hb_import_format_lookup("import", NULL, &f), HB_ERR_USAGE);
    assert_non_null(strstr(hb_last_error(), "name one format"));
    hb_diag_set_quiet(0);
}

/* The commands: an unknown format is bad usage (2), naming the formats, before anything is read. */
static void test_import_and_reproduce_refuse_an_unknown_format(void **state)
{
    (void)state;
    char dir[PATH], err[PATH + 16], out[PATH + 16];
    hb_test_make_temp_dir("hb-import-formats", dir, sizeof dir);
    snprintf(err, sizeof err, "%s/err", dir);
    snprintf(out, sizeof out, "%s/set", dir);
    const char *import[] = {"import", "nosuch", "--kernels", "tests/data/cuda_l2/h100_F32F16F16F32", "--out", out,
                            "--arch", "sm_80", NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), import, NULL, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "import: no import format 'nosuch'"));
    assert_true(hb_test_file_contains(err, "cuda-l2"));
    assert_false(exists(out));
    const char *reproduce[] = {"reproduce", "cuda_l2", "--repo", dir, "--set", "h100", "--dry-run", NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), reproduce, NULL, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "reproduce: no import format 'cuda_l2' (did you mean cuda-l2?)"));
    hb_test_remove_tree(dir);
}

/* The CUDA-L2 row: its files' names, a file read and padded or skipped, its sets' paths. */
static void test_import_cuda_l2_format_reads_its_files(void **state)
{
    (void)state;
    const hb_import_format *f = &hb_cuda_l2_format;
    hb_mnk mnk;
    assert_true(f->config_of_file("96_80_40.cu", &mnk));
    assert_false(f->config_of_file("96_80_40.cu.orig", &mnk));
    assert_false(f->config_of_file("96_80.cu", &mnk));
    assert_false(f->config_of_file("0_80_40.cu", &mnk));
    hb_acc_class acc;
    assert_int_equal(f->set_class("a100_F16F16F16F16", &acc), HB_OK);
    assert_int_equal(acc, HB_ACC_FP16);
    hb_diag_set_quiet(1);
    assert_int_equal(f->set_class("h100_other", &acc), HB_ERR_BAD_INPUT);

    static const char text[] = "auto BM = Int<64>{};\nauto BN = Int<64>{};\nauto BK = Int<32>{};\n"
                               "void cuda_l2_h100_fp32(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major,\n"
                               "                       torch::Tensor c) { k<<<g, b>>>(x); }\n";
    hb_file_rules rules = {HB_ACC_FP32, {.sm = 80, .name = "sm_80"}, 0};
    hb_file_facts facts;
    long padded[3];
    char why[640] = "";
    assert_true(f->read_file(text, "96_80_40.cu", (hb_mnk){96, 80, 40}, &rules, &facts, padded, why, sizeof why));
    assert_string_equal(facts.entry, "cuda_l2_h100_fp32");
    assert_string_equal(facts.kind, "one-kernel");
    assert_true(padded[0] == 128 && padded[1] == 128 && padded[2] == 64);
    rules.accumulator = HB_ACC_FP16;
    assert_false(f->read_file(text, "96_80_40.cu", (hb_mnk){96, 80, 40}, &rules, &facts, padded, why, sizeof why));
    assert_non_null(strstr(why, "does not match the folder's class (fp16)"));
    assert_false(f->read_file("int x;\n", "1_1_1.cu", (hb_mnk){1, 1, 1}, &rules, &facts, padded, why, sizeof why));
    assert_non_null(strstr(why, "not a CUDA-L2 kernel file"));
    hb_diag_set_quiet(0);

    char path[PATH];
    f->set_files_dir("/clone", &f->sets[0], path, sizeof path);
    assert_string_equal(path, "/clone/kernels/h100_F32F16F16F32");
    f->published_results("/clone", &f->sets[0], "offline", path, sizeof path);
    assert_string_equal(path, "/clone/eval_results/cuda_l2_h100_F32F16F16F32_speedup_offline.csv");
}

hb_test_list hb_import_format_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_formats_every_row_has_every_operation),
        cmocka_unit_test(test_import_format_lookup_names_the_known_ones),
        cmocka_unit_test(test_import_and_reproduce_refuse_an_unknown_format),
        cmocka_unit_test(test_import_cuda_l2_format_reads_its_files),
    };
    return HB_TEST_LIST(tests);
}
