/* Texts a folder from elsewhere may hold in any text field (a GPU's name, a
 * candidate's path, a reason, a trace note), and the checks that the
 * harness's Markdown and CSV outputs show them inert (docs/reports.md,
 * "Text from a folder in the outputs"; docs/results.md, "Text cells"). */
#ifndef HB_TEST_HOSTILE_TEXT_H
#define HB_TEST_HOSTILE_TEXT_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/timing_policy.h"

#define HB_HOSTILE_COUNT 8

/* "\n# Heading", "<script>alert(1)</script>", "| a | b |", "`code`",
 * "=HYPERLINK(\"http://x\")", "+1", "-2+3", "@SUM(A1)". */
extern const char *const hb_hostile_texts[HB_HOSTILE_COUNT];

/* All of them in one line, for a field that holds one text (a GPU's name). */
extern const char *const hb_hostile_all;

/* Asserts that the Markdown file at `path` holds them inert: no "<script",
 * no heading line of theirs ("Heading" after leading '#'s), every table's
 * rows with the same number of cell boundaries (a | after an even run of
 * backslashes) as its header; and, unless `own_code_spans` (the page has
 * code spans of its own), no backtick without its backslash. */
void hb_test_assert_markdown_inert(const char *path, int own_code_spans);

/* Asserts that no field of the CSV file at `path` starts with = + - @, a
 * tab or a carriage return unless it is wholly a number, and that none is
 * one of the hostile texts as it is; returns how many fields start with the
 * guard's quote. */
size_t hb_test_assert_csv_inert(const char *path);

/* 1 when some field of the CSV file at `path` is exactly `field`. */
int hb_test_csv_has_field(const char *path, const char *field);

/* Reads the summary.csv at `path` through the report's own reader
 * (bench/analysis/summary_reader.h) and gives configuration (mnk, mode)'s
 * reason and trace note as it read them; fails the test where it lacks it. */
void hb_test_read_back_texts(const char *path, const hb_mnk *mnk, hb_mode mode, char *reason, size_t reason_size,
                             char *trace_note, size_t note_size);

#endif
