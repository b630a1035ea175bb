/* The forms a reproduction sweeps (`reproduce --forms`, docs/reproduce-cuda-l2.md,
 * "Both forms"): a launcher's replay (the kernels it launches, issued by the
 * harness; the default) and the launcher with its own host code.  Each form
 * is a sweep of its own into a folder of its own under OUT, with its own
 * report and comparisons; the replay keeps the names a reproduction had
 * before forms (OUT/sweep, OUT/report, OUT/compare-MODE), so a folder
 * measured then resumes as the replay form's, and the launcher's names add
 * "-launcher" (OUT/sweep-launcher, OUT/report-launcher,
 * OUT/compare-launcher-MODE). */
#ifndef HB_REPRODUCE_FORMS_H
#define HB_REPRODUCE_FORMS_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/replay_record.h"

#define HB_REPRO_MAX_FORMS 2

/* "replay" or "launcher": the word --form and --forms take. */
const char *hb_repro_form_name(hb_form_choice form);

/* `list` ("replay", "launcher", "replay,launcher"; NULL: "replay") into
 * forms[] in the order given.  HB_ERR_USAGE naming the word for an unknown
 * form, an empty word or a form given twice. */
hb_status hb_repro_forms_parse(const char *list, hb_form_choice forms[HB_REPRO_MAX_FORMS], size_t *n);

/* The folder names of `form` under OUT: its sweep ("sweep",
 * "sweep-launcher", a shard's with "-shard-I-of-N" after it: `shard_suffix`,
 * "" for the whole), its report folder and markdown ("report", "report.md";
 * "report-launcher", ...) and the prefix of its comparisons ("compare-",
 * "compare-launcher-", followed by the mode). */
void hb_repro_form_sweep(hb_form_choice form, const char *shard_suffix, char *out, size_t size);
const char *hb_repro_form_report(hb_form_choice form);
const char *hb_repro_form_compare_prefix(hb_form_choice form);

#endif
