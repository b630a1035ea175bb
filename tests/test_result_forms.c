/* The candidate's form read back and named in every table (docs/reports.md,
 * "Forms"): a folder of one form says it in each table's caption; a folder
 * that mixes forms gets each table once per form, on that form's
 * configurations, and says how many of each; an earlier harness's
 * summary.csv (no `form` column) reads "launcher" for a launcher's rows and
 * "cubin" for a cubin's, from the algorithm cell, and "unknown" without it.
 * On small summary.csv texts read in this process. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/comparison.h"
#include "bench/analysis/paper_tables.h"
#include "bench/analysis/result_forms.h"
#include "bench/analysis/summary_reader.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* The columns the reader needs, then the form's. */
#define HEADER "m,n,k,mode,participant,role,verdict,check,reason,algorithm,speedup_paper,speedup_geomean," \
               "speedup_paper_wall,speedup_geomean_wall"
#define NEW_HEADER HEADER ",form,replay_refusal\n"
#define OLD_HEADER HEADER "\n"

/* A configuration's two rows (the candidate's and torch's, 10 % faster) in the new layout. */
static void add_config(char *text, size_t size, long m, const char *algorithm, const char *form, const char *refusal)
{
    size_t used = strlen(text);
    snprintf(text + used, size - used,
             "%ld,64,64,offline,candidate,candidate,pass,,,%s,,,,,%s,%s\n"
             "%ld,64,64,offline,torch,baseline,ok,,,,0.1,0.1,0.1,0.1,,\n",
             m, algorithm, form, refusal, m);
}

/* The same without the form's columns, as a harness before them wrote it. */
static void add_old_config(char *text, size_t size, long m, const char *algorithm)
{
    size_t used = strlen(text);
    snprintf(text + used, size - used,
             "%ld,64,64,offline,candidate,candidate,pass,,,%s,,,,\n"
             "%ld,64,64,offline,torch,baseline,ok,,,,0.1,0.1,0.1,0.1\n",
             m, algorithm, m);
}

static void read_set(const char *text, hb_result_set *set)
{
    hb_result_set_init(set);
    assert_int_equal(hb_read_summary_text("summary.csv", text, strlen(text), set), HB_OK);
    assert_int_equal(hb_result_set_sort(set), HB_OK);
}

static const hb_config_entry *entry_of(const hb_result_set *set, long m)
{
    hb_config_key key = {m, 64, 64, HB_MODE_OFFLINE};
    const hb_config_entry *e = hb_result_set_find(set, &key);
    assert_non_null(e);
    return e;
}

static int a_note_holds(const hb_doc *doc, const char *text)
{
    for (size_t i = 0; i < doc->n_notes; i++)
        if (strstr(doc->notes[i], text))
            return 1;
    return 0;
}

static void test_one_form_is_named_in_every_caption(void **state)
{
    (void)state;
    char text[4096] = NEW_HEADER;
    for (long m = 64; m <= 256; m += 64)
        add_config(text, sizeof text, m, "launcher:hgemm_launch", "replay", "");
    hb_result_set set;
    read_set(text, &set);
    assert_string_equal(entry_of(&set, 128)->form, "replay");
    hb_doc doc;
    hb_doc_init(&doc, "report");
    assert_int_equal(hb_build_report(&set, HB_TIMER_EVENT, &doc), HB_OK);
    assert_true(a_note_holds(&doc, "form: replay"));
    /* the tables keep their names and layout; each caption names the form */
    const hb_doc_table *t1 = hb_doc_find(&doc, "table1");
    assert_non_null(t1);
    assert_null(hb_doc_find(&doc, "table1_replay"));
    assert_string_equal(t1->column[0], "mode");
    assert_int_equal(t1->n_rows, 1); /* offline, torch */
    for (size_t i = 0; i < doc.n_tables; i++)
        if (!strstr(doc.tables[i]->caption, "Form: replay."))
            fail_msg("table %s's caption does not name the form: %s", doc.tables[i]->name, doc.tables[i]->caption);
    hb_doc_free(&doc);
    hb_result_set_free(&set);
}

static void test_mixed_forms_are_kept_apart(void **state)
{
    (void)state;
    char text[4096] = NEW_HEADER;
    add_config(text, sizeof text, 64, "launcher:hgemm_launch", "replay", "");
    add_config(text, sizeof text, 128, "launcher:hgemm_launch", "replay", "");
    add_config(text, sizeof text, 192, "launcher:hgemm_launch", "launcher", "host-read");
    hb_result_set set;
    read_set(text, &set);
    assert_string_equal(entry_of(&set, 192)->form, "launcher");
    assert_string_equal(entry_of(&set, 192)->replay_refusal, "host-read");
    size_t counts[HB_N_RESULT_FORMS];
    assert_int_equal(hb_result_form_counts(&set, counts), 2);
    hb_doc doc;
    hb_doc_init(&doc, "report");
    assert_int_equal(hb_build_report(&set, HB_TIMER_EVENT, &doc), HB_OK);
    assert_true(a_note_holds(&doc, "forms: replay 2, launcher 1"));
    /* no table of every configuration: one per form, each of its own configurations */
    assert_null(hb_doc_find(&doc, "table1"));
    const hb_doc_table *replay = hb_doc_find(&doc, "table1_replay"), *launcher = hb_doc_find(&doc, "table1_launcher");
    assert_non_null(replay);
    assert_non_null(launcher);
    assert_non_null(strstr(replay->title, "(form: replay)"));
    assert_non_null(strstr(launcher->caption, "Form: launcher."));
    assert_string_equal(replay->column[2], "configs");
    assert_true(hb_doc_cell_at(replay, 0, 2)->number == 2);
    assert_true(hb_doc_cell_at(launcher, 0, 2)->number == 1);
    const hb_doc_table *published = hb_doc_find(&doc, "speedup_offline_launcher");
    assert_non_null(published);
    assert_int_equal(published->n_rows, 1);
    assert_string_equal(hb_doc_cell_at(published, 0, 0)->text, "192_64_64");
    assert_non_null(hb_doc_find(&doc, "not_run")); /* a plan's items: once, they have no form */
    hb_doc_free(&doc);
    hb_result_set_free(&set);
}

static void test_an_earlier_harness_reads_from_the_algorithm(void **state)
{
    (void)state;
    char text[4096] = OLD_HEADER;
    add_old_config(text, sizeof text, 64, "launcher:hgemm_launch");
    add_old_config(text, sizeof text, 128, "hgemm_kernel");
    add_old_config(text, sizeof text, 192, "");
    hb_result_set set;
    read_set(text, &set);
    assert_string_equal(entry_of(&set, 64)->form, "launcher");
    assert_string_equal(entry_of(&set, 128)->form, "cubin");
    assert_string_equal(entry_of(&set, 192)->form, "unknown");
    assert_string_equal(entry_of(&set, 64)->replay_refusal, "");
    hb_doc doc;
    hb_doc_init(&doc, "report");
    assert_int_equal(hb_build_report(&set, HB_TIMER_EVENT, &doc), HB_OK);
    assert_true(a_note_holds(&doc, "forms: cubin 1, launcher 1, unknown 1"));
    assert_non_null(hb_doc_find(&doc, "table1_unknown"));
    hb_doc_free(&doc);
    hb_result_set_free(&set);

    /* the oldest, with no algorithm column either: unknown, one form, the tables as they were */
    hb_result_set_init(&set);
    const char *oldest = "m,n,k,mode,participant,role,verdict,check,reason,speedup_paper,speedup_geomean,"
                         "speedup_paper_wall,speedup_geomean_wall\n"
                         "64,64,64,offline,candidate,candidate,pass,,,,,,\n"
                         "64,64,64,offline,torch,baseline,ok,,,0.1,0.1,0.1,0.1\n";
    assert_int_equal(hb_read_summary_text("summary.csv", oldest, strlen(oldest), &set), HB_OK);
    assert_string_equal(entry_of(&set, 64)->form, "unknown");
    hb_doc_init(&doc, "report");
    assert_int_equal(hb_build_report(&set, HB_TIMER_EVENT, &doc), HB_OK);
    assert_non_null(hb_doc_find(&doc, "table1"));
    assert_true(a_note_holds(&doc, "form: unknown"));
    hb_doc_free(&doc);
    hb_result_set_free(&set);
}

static void test_a_form_summary_csv_never_wrote_is_refused(void **state)
{
    (void)state;
    char text[4096] = NEW_HEADER;
    add_config(text, sizeof text, 64, "k", "binary", "");
    hb_result_set set;
    hb_result_set_init(&set);
    assert_int_equal(hb_read_summary_text("summary.csv", text, strlen(text), &set), HB_ERR_BAD_RESULTS);
    hb_result_set_free(&set);
}

static void test_compare_keeps_forms_apart(void **state)
{
    (void)state;
    char text[4096] = NEW_HEADER;
    add_config(text, sizeof text, 64, "launcher:e", "replay", "");
    add_config(text, sizeof text, 128, "launcher:e", "launcher", "calls-differ");
    hb_result_set set;
    read_set(text, &set);
    hb_published_table theirs = {0};
    hb_compare_input in = {.ours = &set, .theirs = &theirs, .mode = HB_MODE_OFFLINE, .timer = HB_TIMER_EVENT,
                           .published_path = "published.csv", .mode_source = "--mode", .noise_floor = 0.02, .threshold = -1.0};
    hb_doc doc;
    hb_doc_init(&doc, "compare");
    hb_compare_outcome outcome;
    assert_int_equal(hb_build_comparison(&in, &doc, &outcome), HB_OK);
    assert_true(a_note_holds(&doc, "ours: forms: replay 1, launcher 1"));
    assert_null(hb_doc_find(&doc, "compare_summary"));
    assert_non_null(hb_doc_find(&doc, "compare_summary_replay"));
    assert_non_null(strstr(hb_doc_find(&doc, "compare_summary_launcher")->caption, "Form: launcher."));
    hb_doc_free(&doc);
    hb_result_set_free(&set);
}

hb_test_list hb_result_forms_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_form_is_named_in_every_caption),
        cmocka_unit_test(test_mixed_forms_are_kept_apart),
        cmocka_unit_test(test_an_earlier_harness_reads_from_the_algorithm),
        cmocka_unit_test(test_a_form_summary_csv_never_wrote_is_refused),
        cmocka_unit_test(test_compare_keeps_forms_apart),
    };
    return HB_TEST_LIST(tests);
}
