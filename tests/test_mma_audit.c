#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
/* The accumulator audit (docs/validation.md, "Accumulator audit"): the SASS
 * parser on real cuobjdump text (tests/data/sass/, tests/data/README.md says
 * where each excerpt comes from), the cell, the findings fp16-mma-only and
 * fp16-simt-only and how the gate takes them, the audit of a file through
 * cuobjdump with its cache (a stand-in cuobjdump that prints a fixture, so
 * every machine runs it; the real one where the toolkit has it), the
 * summary.csv and import.csv columns, and the census. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/analysis/mma_census.h"
#include "bench/driver/accumulator_audit.h"
#include "bench/import/import_report.h"
#include "bench/import/sass_audit.h"
#include "bench/report/summary_columns.h"
#include "bench/result/gate.h"
#include "bench/result/mma_audit.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static hb_mma_audit audit_of_text_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    hb_mma_audit a = {.known = 1};
    char line[4096];
    while (fgets(line, sizeof line, f))
        hb_mma_audit_add_line(&a, line);
    fclose(f);
    return a;
}

static void assert_cell(const hb_mma_audit *a, const char *expected)
{
    char cell[HB_MMA_CELL];
    hb_mma_audit_format(a, cell, sizeof cell);
    assert_string_equal(cell, expected);
}

/* --- the parser on real cuobjdump text --------------------------------------------- */

static void test_mma_audit_hmma_f32_fixture(void **state)
{
    (void)state;
    hb_mma_audit a = audit_of_text_file("tests/data/sass/hmma_f32.sm_80.txt");
    assert_int_equal(a.count[HB_MMA_HMMA_F32], 18);
    assert_int_equal(a.count[HB_MMA_HMMA_F16], 0);
    assert_string_equal(hb_mma_audit_class(&a), "f32");
    assert_cell(&a, "f32;hmma.f32=18");
    assert_false(hb_mma_fp16_only(&a));
}

/* The mangled kernel name spells MMA_Atom and F16F16F16F16: only instructions count. */
static void test_mma_audit_hmma_f16_launcher_fixture(void **state)
{
    (void)state;
    hb_mma_audit a = audit_of_text_file("tests/data/sass/hmma_f16_launcher.sm_90a.txt");
    assert_int_equal(a.count[HB_MMA_HMMA_F16], 5);
    assert_int_equal(a.count[HB_MMA_HMMA_F32], 0);
    assert_cell(&a, "f16;hmma.f16=5");
    assert_true(hb_mma_fp16_only(&a));
}

static void test_mma_audit_hgmma_fixture(void **state)
{
    (void)state;
    hb_mma_audit a = audit_of_text_file("tests/data/sass/hgmma_f16_f32.sm_90a.txt");
    assert_int_equal(a.count[HB_MMA_HGMMA_F16], 1);
    assert_int_equal(a.count[HB_MMA_HGMMA_F32], 1);
    assert_cell(&a, "f16+f32;hgmma.f32=1;hgmma.f16=1");
    assert_false(hb_mma_fp16_only(&a));
}

/* No MMA: the FMA pipes' types.  HFMA2.MMA R, -RZ, RZ, 0, 0 loads a constant: no arithmetic. */
static void test_mma_audit_simt_fixtures(void **state)
{
    (void)state;
    hb_mma_audit f16 = audit_of_text_file("tests/data/sass/simt_f16.sm_90.txt");
    assert_cell(&f16, "simt-f16;simt.f16=6");
    assert_true(hb_mma_fp16_simt_only(&f16));
    hb_mma_audit f32 = audit_of_text_file("tests/data/sass/simt_f32.sm_90.txt");
    assert_true(hb_test_file_contains("tests/data/sass/simt_f32.sm_90.txt", "HFMA2.MMA"));
    assert_cell(&f32, "simt-f32;simt.f32=13");
    assert_false(hb_mma_fp16_simt_only(&f32));
    hb_mma_audit f64 = audit_of_text_file("tests/data/sass/simt_f64.sm_90.txt");
    assert_cell(&f64, "simt-f64;simt.f64=13");
}

/* Spellings the fixtures lack: a predicate, BF16 and TF32 inputs, integer MMA, moves. */
static void test_mma_audit_other_spellings(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "        /*0100*/              @!P0 HMMA.16816.F32.BF16 R4, R8, R12, R4 ;        /* 0x0000000c0804723c */",
        "                                                                                  /* 0x000fe20000041804 */",
        "        /*0110*/                   HMMA.1688.F32.TF32 R4, R8, R12, R4 ;          /* 0x0000000c0804723c */",
        "        /*0120*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], R24 ; /* 0x00000000041879f0 */",
        "        /*0130*/                   IMMA.16832.S8.S8 R4, R8, R12, R4 ;            /* 0x0000000c0804723c */",
        "        /*0140*/                   HMMA.16816.F16 R4, R8, R12, R4 ;              /* 0x0000000c0804723c */",
        "        /*0150*/               @P1 HFMA2 R5, R6.H0_H0, R7.H0_H0, R5.H0_H0 ;     /* 0x2000000706057231 */",
        "        /*0160*/                   HADD2.F32 R5, -RZ, R6.H0_H0 ;                 /* 0x20000006ff057230 */",
        "\t\tFunction : HMMA.16816.F16_looking_name",
        "        /*0170*/                   NOP ;                                         /* 0x0000000000007918 */",
        "        /*0180*/                   FFMA R3, R4, RZ, R5 ;                         /* 0x000000ff04037223 */",
    };
    hb_mma_audit a = {.known = 1};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        hb_mma_audit_add_line(&a, lines[i]);
    assert_int_equal(a.count[HB_MMA_HMMA_F32], 2);
    assert_int_equal(a.count[HB_MMA_HGMMA_F32], 1);
    assert_int_equal(a.count[HB_MMA_HMMA_F16], 1);
    assert_int_equal(a.count[HB_SIMT_F16], 1); /* the HADD2.F32 from -RZ is a conversion */
    assert_int_equal(a.count[HB_SIMT_F32], 0); /* a multiply by RZ moves R5 */
    assert_cell(&a, "f16+f32;hmma.f32=2;hmma.f16=1;hgmma.f32=1;simt.f16=1");
}

/* --- the cell ---------------------------------------------------------------------- */

static void test_mma_audit_cell_round_trip(void **state)
{
    (void)state;
    static const char *const good[] = {"f16;hmma.f16=64", "f32;hmma.f32=32;simt.f32=2", "none",
                                       "simt-f16+f32;simt.f16=1;simt.f32=9", "f16+f32;hgmma.f32=1;hgmma.f16=1"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        hb_mma_audit a;
        assert_int_equal(hb_mma_audit_parse_cell(good[i], &a), 1);
        assert_cell(&a, good[i]);
    }
    /* A class the counts contradict, an unknown kind, a bad count, unknown, empty. */
    static const char *const bad[] = {"f32;hmma.f16=64", "f16;bogus=1", "f16;hmma.f16=-1", "f16;hmma.f16=x",
                                      "f16;hmma.f16=1;hmma.f16=1", "unknown", "", "f16;"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hb_mma_audit a;
        assert_int_equal(hb_mma_audit_parse_cell(bad[i], &a), 0);
        assert_int_equal(a.known, 0);
    }
    hb_mma_audit unknown = {0};
    assert_cell(&unknown, "unknown");
}

/* --- the findings and the gate ------------------------------------------------------ */

static hb_mma_audit audit_from(const char *cell)
{
    hb_mma_audit a;
    assert_int_equal(hb_mma_audit_parse_cell(cell, &a), 1);
    return a;
}

static void test_mma_findings_fire_for_fp16_only(void **state)
{
    (void)state;
    hb_conduct c = {0};
    hb_mma_audit f16 = audit_from("f16;hmma.f16=64;simt.f32=8");
    assert_int_equal(hb_mma_findings(&f16, HB_ACC_FP32, &c), HB_FINDING_BIT(HB_FINDING_FP16_MMA_ONLY));
    assert_true(c.found & HB_FINDING_BIT(HB_FINDING_FP16_MMA_ONLY));
    assert_non_null(strstr(c.line[HB_FINDING_FP16_MMA_ONLY], "fp16-mma-only"));
    assert_non_null(strstr(c.line[HB_FINDING_FP16_MMA_ONLY], "64"));

    hb_conduct simt = {0};
    hb_mma_audit hfma2 = audit_from("simt-f16;simt.f16=29");
    assert_int_equal(hb_mma_findings(&hfma2, HB_ACC_FP32, &simt), HB_FINDING_BIT(HB_FINDING_FP16_SIMT_ONLY));
}

static void test_mma_findings_quiet_otherwise(void **state)
{
    (void)state;
    static const char *const fine[] = {"f32;hmma.f32=32", "f16+f32;hgmma.f32=1;hgmma.f16=1", "simt-f32;simt.f32=29",
                                       "simt-f16+f32;simt.f16=1;simt.f32=9", "none"};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        hb_conduct c = {0};
        hb_mma_audit a = audit_from(fine[i]);
        assert_int_equal(hb_mma_findings(&a, HB_ACC_FP32, &c), 0);
        assert_int_equal(c.found, 0);
    }
    hb_conduct c = {0};
    hb_mma_audit f16 = audit_from("f16;hmma.f16=64");
    assert_int_equal(hb_mma_findings(&f16, HB_ACC_FP16, &c), 0); /* an fp16 claim holds */
    hb_mma_audit unknown = {0};
    assert_int_equal(hb_mma_findings(&unknown, HB_ACC_FP32, &c), 0);
}

static void test_mma_findings_names_and_masks(void **state)
{
    (void)state;
    hb_finding f;
    assert_true(hb_finding_parse("fp16-mma-only", &f));
    assert_int_equal(f, HB_FINDING_FP16_MMA_ONLY);
    assert_true(hb_finding_parse("fp16-simt-only", &f));
    assert_int_equal(hb_finding_strict_mask() & hb_finding_static_mask(), 0); /* informational */
    unsigned mask;
    char bad[32];
    assert_true(hb_finding_parse_list("fp16-mma-only,sync", &mask, bad, sizeof bad));
    assert_int_equal(mask, HB_FINDING_BIT(HB_FINDING_FP16_MMA_ONLY) | HB_FINDING_BIT(HB_FINDING_SYNC));
}

static hb_config_result *passing_result(void)
{
    static hb_config_result r;
    memset(&r, 0, sizeof r);
    hb_mnk mnk = {64, 64, 64};
    hb_config_result_init(&r, &mnk);
    r.status = HB_OK;
    r.verdict = HB_VERDICT_PASS;
    return &r;
}

/* A finding from the file stands without a trace: --forbid refuses it even untraced. */
static void test_mma_findings_gate_without_trace(void **state)
{
    (void)state;
    const unsigned mma_only = HB_FINDING_BIT(HB_FINDING_FP16_MMA_ONLY);
    hb_config_result *r = passing_result();
    hb_mma_audit f16 = audit_from("f16;hmma.f16=64");
    hb_mma_findings(&f16, HB_ACC_FP32, &r->conduct);
    hb_gate_apply_conduct(r, mma_only);
    assert_int_equal(r->status, HB_ERR_FORBIDDEN);
    assert_string_equal(r->check, "conduct");
    assert_non_null(strstr(r->reason, "fp16-mma-only"));

    r = passing_result(); /* an f32 kernel: forbidding the static finding needs no trace */
    hb_gate_apply_conduct(r, mma_only);
    assert_int_equal(r->status, HB_OK);

    r = passing_result(); /* a finding of the calls still needs the trace */
    hb_gate_apply_conduct(r, mma_only | HB_FINDING_BIT(HB_FINDING_SYNC));
    assert_int_equal(r->verdict, HB_VERDICT_ERROR);
}

/* --- the audit of a file, through cuobjdump ---------------------------------------- */

/* A stand-in cuobjdump at DIR/cuobjdump that checks its arguments and prints `fixture`, or fails. */
static void fake_cuobjdump(const char *dir, const char *fixture, int fail, char *path, size_t size)
{
    snprintf(path, size, "%s/cuobjdump", dir);
    char cwd[2048];
    assert_non_null(getcwd(cwd, sizeof cwd));
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    if (fail)
        fprintf(f, "#!/bin/sh\necho 'cuobjdump fatal   : Could not open input file' >&2\nexit 1\n");
    else
        fprintf(f, "#!/bin/sh\n[ \"$1\" = -sass ] && [ -f \"$2\" ] || exit 3\ncat '%s/%s'\n", cwd, fixture);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_sass_audit_runs_cuobjdump_and_caches(void **state)
{
    (void)state;
    char dir[512], tool[1024], file[1024], note[640];
    hb_test_make_temp_dir("hb-sass", dir, sizeof dir);
    snprintf(file, sizeof file, "%s/kernel.cubin", dir);
    write_text(file, "not really a cubin: the stand-in does not read it");
    fake_cuobjdump(dir, "tests/data/sass/hmma_f16_launcher.sm_90a.txt", 0, tool, sizeof tool);
    setenv("HB_CUOBJDUMP", tool, 1);
    hb_mma_audit a;
    hb_sass_audit_file(file, dir, &a, note, sizeof note);
    assert_string_equal(note, "");
    assert_cell(&a, "f16;hmma.f16=5");
    /* the cache: named by the SHA-256 of the file's bytes (sha256sum of the text above) */
    char cache[1100];
    snprintf(cache, sizeof cache, "%s/mma-%s.txt", dir,
             "af9f1001fbd580fee7406d80ed6d4f8f1e8df80b99300e6f4cf62f859e2d2d5e");
    assert_true(hb_test_file_contains(cache, "f16;hmma.f16=5"));

    /* The cache answers for the same bytes, even with a cuobjdump that fails... */
    fake_cuobjdump(dir, "", 1, tool, sizeof tool);
    hb_sass_audit_file(file, dir, &a, note, sizeof note);
    assert_cell(&a, "f16;hmma.f16=5");
    /* ...and not for other bytes: then the failure shows, as unknown with cuobjdump's words. */
    write_text(file, "another build");
    hb_sass_audit_file(file, dir, &a, note, sizeof note);
    assert_cell(&a, "unknown");
    assert_non_null(strstr(note, "Could not open input file"));
    /* Without a cache folder every audit runs cuobjdump. */
    hb_sass_audit_file(file, NULL, &a, note, sizeof note);
    assert_cell(&a, "unknown");
    unsetenv("HB_CUOBJDUMP");
    hb_test_remove_tree(dir);
}

/* Without cuobjdump: unknown and a note naming what to do, never a failure. */
static void test_sass_audit_without_cuobjdump(void **state)
{
    (void)state;
    char note[640];
    setenv("HB_CUOBJDUMP", "/nonexistent/cuobjdump", 1);
    hb_mma_audit a;
    hb_sass_audit_file("tests/data/sass/hmma_f32.sm_80.txt", "/nonexistent", &a, note, sizeof note);
    unsetenv("HB_CUOBJDUMP");
    assert_int_equal(a.known, 0);
    assert_non_null(strstr(note, "HB_CUOBJDUMP"));
    hb_sass_audit_file("/nonexistent/kernel.cubin", "/nonexistent", &a, note, sizeof note);
    assert_int_equal(a.known, 0);
    assert_non_null(strstr(note, "/nonexistent/kernel.cubin"));
}

/* The toolkit's own cuobjdump on the repository's fp16-accumulating sample, where it is installed. */
static void test_sass_audit_real_cuobjdump(void **state)
{
    (void)state;
    char tool[4096], dir[512], note[640];
    hb_test_make_temp_dir("hb-sass-real", dir, sizeof dir);
    const char *build = getenv("HB_BUILD") ? getenv("HB_BUILD") : "build";
    char cubin[1024];
    snprintf(cubin, sizeof cubin, "%s/test-fixtures/hgemm_mma_pipelined.sm_80.cubin", build);
    hb_mma_audit a;
    hb_sass_audit_file(cubin, dir, &a, note, sizeof note);
    if (hb_cuobjdump_find(tool, sizeof tool)) {
        assert_string_equal(note, "");
        assert_string_equal(hb_mma_audit_class(&a), "f32"); /* mma.sync m16n8k16 with fp32 accumulators */
        assert_true(a.count[HB_MMA_HMMA_F32] > 0);
    } else {
        printf("  (no cuobjdump here: checked that the audit is unknown with a note)\n");
        assert_int_equal(a.known, 0);
        assert_non_null(strstr(note, "no cuobjdump"));
    }
    hb_test_remove_tree(dir);
}

/* --- where it lands: the run's record, summary.csv, import.csv --------------------- */

static void test_accumulator_audit_of_a_run(void **state)
{
    (void)state;
    char dir[512], tool[1024], cubin[1024], manifest[1024];
    hb_test_make_temp_dir("hb-acc-audit", dir, sizeof dir);
    snprintf(cubin, sizeof cubin, "%s/k.sm_90.cubin", dir);
    write_text(cubin, "stand-in");
    snprintf(manifest, sizeof manifest, "%s/manifest.json", dir);
    FILE *f = fopen(manifest, "w");
    assert_non_null(f);
    fprintf(f, "{\"format\": \"hgemm-bench-candidate/1\", \"name\": \"claims-fp32\", \"cubin\": {\"sm_90\": "
               "\"k.sm_90.cubin\"}, \"entry\": \"k\", \"grid\": [1, 1, 1], \"block\": [32, 1, 1], "
               "\"dynamic_smem_bytes\": 0, \"b_layout\": \"row\", \"accumulator\": \"fp32\", "
               "\"workspace_bytes\": 0}\n");
    fclose(f);
    fake_cuobjdump(dir, "tests/data/sass/hmma_f16_launcher.sm_90a.txt", 0, tool, sizeof tool);
    setenv("HB_CUOBJDUMP", tool, 1);
    hb_run_options options;
    memset(&options, 0, sizeof options);
    hb_device_info device;
    memset(&device, 0, sizeof device);
    device.sm = 90;
    hb_config_result *r = passing_result();
    snprintf(r->manifest_path, sizeof r->manifest_path, "%s", manifest);
    hb_accumulator_audit(&options, &device, r);
    unsetenv("HB_CUOBJDUMP");
    assert_int_equal(r->mma_audited, 1);
    assert_cell(&r->mma, "f16;hmma.f16=5");
    assert_true(r->conduct.found & HB_FINDING_BIT(HB_FINDING_FP16_MMA_ONLY));

    /* summary.csv: the cell on the candidate's row, the finding in conduct though no trace ran. */
    hb_row row = {"run", "fp32", r, &r->participants[0]};
    hb_cell cell = hb_summary_column_find("mma_accumulators")->value(&row);
    assert_string_equal(hb_cell_text(&cell), "f16;hmma.f16=5");
    cell = hb_summary_column_find("conduct")->value(&row);
    assert_string_equal(hb_cell_text(&cell), "fp16-mma-only");

    /* --aa has no file: nothing audited. */
    hb_config_result *aa = passing_result();
    options.aa = "cublas";
    snprintf(aa->manifest_path, sizeof aa->manifest_path, "%s", manifest);
    hb_accumulator_audit(&options, &device, aa);
    assert_int_equal(aa->mma_audited, 0);
    row = (hb_row){"run", "fp32", aa, &aa->participants[0]};
    cell = hb_summary_column_find("mma_accumulators")->value(&row);
    assert_int_equal(cell.kind, HB_CELL_EMPTY);
    hb_test_remove_tree(dir);
}

static void test_import_report_has_the_column(void **state)
{
    (void)state;
    char dir[512], csv[1024];
    hb_test_make_temp_dir("hb-import-mma", dir, sizeof dir);
    static hb_import_item items[2];
    memset(items, 0, sizeof items);
    items[0].mnk = (hb_mnk){64, 64, 64};
    items[0].state = HB_ITEM_BUILT;
    items[0].mma_audited = 1;
    items[0].mma = audit_from("f16;hmma.f16=8");
    items[1].mnk = (hb_mnk){128, 64, 64};
    items[1].state = HB_ITEM_SKIPPED;
    assert_int_equal(hb_import_report_write(dir, "import.csv", items, 2), HB_OK);
    snprintf(csv, sizeof csv, "%s/%s", dir, HB_IMPORT_REPORT_FILE);
    assert_true(hb_test_file_contains(csv, "mma_accumulators"));
    assert_true(hb_test_file_contains(csv, "f16;hmma.f16=8"));
    hb_test_remove_tree(dir);
}

/* --- the census --------------------------------------------------------------------- */

static void test_mma_census_counts(void **state)
{
    (void)state;
    hb_mma_census c = {0};
    /* summary.csv rows: acc_class, verdict, check, mma_accumulators. */
    assert_int_equal(hb_mma_census_add(&c, "f16;hmma.f16=64", "fp32", "incorrect", "deviation"), HB_CENSUS_FP16_ONLY);
    assert_int_equal(hb_mma_census_add(&c, "f16;hmma.f16=8", "fp32", "pass", ""), HB_CENSUS_FP16_ONLY_PASSED);
    assert_int_equal(hb_mma_census_add(&c, "f32;hmma.f32=32", "fp32", "incorrect", "deviation"), HB_CENSUS_OTHER);
    assert_int_equal(hb_mma_census_add(&c, "f32;hmma.f32=32", "fp32", "pass", ""), HB_CENSUS_OTHER);
    assert_int_equal(hb_mma_census_add(&c, "f16;hmma.f16=64", "fp16", "pass", ""), HB_CENSUS_OTHER);
    assert_int_equal(hb_mma_census_add(&c, "simt-f16;simt.f16=29", "fp32", "incorrect", "deviation"),
                     HB_CENSUS_FP16_ONLY);
    assert_int_equal(hb_mma_census_add(&c, "unknown", "fp32", "pass", ""), HB_CENSUS_OTHER);
    assert_int_equal(hb_mma_census_add(&c, "", "fp32", "incorrect", "deviation"), HB_CENSUS_OTHER);
    /* import.csv: no verdict. */
    assert_int_equal(hb_mma_census_add(&c, "f16;hmma.f16=8", "fp32", NULL, NULL), HB_CENSUS_FP16_ONLY);
    assert_int_equal(c.rows, 9);
    assert_int_equal(c.unknown, 2);
    assert_int_equal(c.mma_f16, 4);
    assert_int_equal(c.mma_f32, 2);
    assert_int_equal(c.simt, 1);
    assert_int_equal(c.fp16_only, 4);
    assert_int_equal(c.deviation_failures, 4);
    assert_int_equal(c.deviation_failures_fp16, 2);
    assert_int_equal(c.fp16_only_passed, 1);
}

hb_test_list hb_mma_audit_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mma_audit_hmma_f32_fixture),
        cmocka_unit_test(test_mma_audit_hmma_f16_launcher_fixture),
        cmocka_unit_test(test_mma_audit_hgmma_fixture),
        cmocka_unit_test(test_mma_audit_simt_fixtures),
        cmocka_unit_test(test_mma_audit_other_spellings),
        cmocka_unit_test(test_mma_audit_cell_round_trip),
        cmocka_unit_test(test_mma_findings_fire_for_fp16_only),
        cmocka_unit_test(test_mma_findings_quiet_otherwise),
        cmocka_unit_test(test_mma_findings_names_and_masks),
        cmocka_unit_test(test_mma_findings_gate_without_trace),
        cmocka_unit_test(test_sass_audit_runs_cuobjdump_and_caches),
        cmocka_unit_test(test_sass_audit_without_cuobjdump),
        cmocka_unit_test(test_sass_audit_real_cuobjdump),
        cmocka_unit_test(test_accumulator_audit_of_a_run),
        cmocka_unit_test(test_import_report_has_the_column),
        cmocka_unit_test(test_mma_census_counts),
    };
    return HB_TEST_LIST(tests);
}
