/* The forms a result set's candidates were timed in (docs/launchers.md,
 * "The replay form"; summary.csv's `form`): a cubin, a launcher's replay,
 * a launcher's own host code, or "unknown" (an earlier harness's row that
 * does not say, a candidate that never loaded).  A folder of one form has
 * the report's and compare's tables as they are, its form named in each
 * caption; a folder that mixes them gets each table once per form, on the
 * configurations of that form only, so that a replay's figures and a
 * launcher's are never averaged together. */
#ifndef HB_RESULT_FORMS_H
#define HB_RESULT_FORMS_H

#include <stddef.h>

#include "bench/analysis/report_doc.h"
#include "bench/analysis/result_set.h"

#define HB_FORM_UNKNOWN "unknown"
#define HB_N_RESULT_FORMS 4

/* The i-th form in the tables' order: cubin, replay, launcher, unknown. */
const char *hb_result_form_at(size_t i);

/* 1 if `form` is one summary.csv writes (cubin, replay, launcher). */
int hb_result_form_known(const char *form);

/* How many configurations of each form (in hb_result_form_at's order) the
 * set holds; returns how many forms it holds at all. */
size_t hb_result_form_counts(const hb_result_set *set, size_t counts[HB_N_RESULT_FORMS]);

/* "form: replay" for one form, "forms: replay 70, launcher 10" for several. */
void hb_result_form_words(const size_t counts[HB_N_RESULT_FORMS], char *out, size_t size);

/* `out`: a set of the configurations of `form` only, with its own index;
 * the entries' sources and candidates stay the set's (free `out` first),
 * and the set's GPUs are copied; its notes and missing configurations are
 * not (say them once).  Free with hb_result_set_free. */
hb_status hb_result_set_of_form(const hb_result_set *set, const char *form, hb_result_set *out);

/* The tables of `doc` from index `first` on are `form`'s: each caption ends
 * with "Form: <form>." and, when `split` (a folder of several forms), each
 * name gets "_<form>" (table1_replay.csv) and each title "(form: <form>)". */
hb_status hb_doc_mark_form(hb_doc *doc, size_t first, const char *form, int split);

#endif
