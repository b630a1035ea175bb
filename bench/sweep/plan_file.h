/* plan.json, the first file of a sweep folder (docs/sweeps.md): the plan
 * (every item in order), the settings of the run as flags, the shard, and
 * the sweep's identity.  `sweep --resume` rebuilds the sweep from it alone,
 * and `merge` and `report` read it; `--dry-run` prints the same plan.
 *
 * The identity (sweep_id, 16 hex digits) is a hash of the harness commit,
 * the settings and the items, without the shard: every shard of one sweep
 * carries the same id, and two sweeps that differ in anything measured do
 * not.  plan_sha256, a SHA-256 of the whole file with its shard, is what
 * tells an edited plan (plan_file.c says what it does not protect).
 *
 * Versions: this harness writes 2 and reads 1 and 2.  Version 1, written
 * by the harness before plan_sha256 (docs/sweeps.md, "Folders of earlier
 * harnesses"), is the same document without it: read with every check but
 * that one.  A version above 2 is a newer harness's, and refused. */
#ifndef HB_PLAN_FILE_H
#define HB_PLAN_FILE_H

#include <jansson.h>
#include <stdio.h>

#include "bench/core/status.h"
#include "bench/sweep/shard.h"
#include "bench/sweep/sweep_plan.h"

#define HB_PLAN_FORMAT "hgemm-bench-sweep-plan"
#define HB_PLAN_VERSION 2 /* 2: with plan_sha256; the version written */
#define HB_PLAN_OLDEST_VERSION 1 /* 1: without it; the oldest read */
#define HB_PLAN_DIGEST_KEY "plan_sha256"
#define HB_PLAN_DIGEST_HEX 65
#define HB_PLAN_MAX_WORDS 128

typedef struct hb_plan_file {
    int version;                    /* as read (HB_PLAN_OLDEST_VERSION..HB_PLAN_VERSION); written: HB_PLAN_VERSION */
    hb_sweep_plan plan;
    hb_shard shard;
    char sweep_id[17];
    char harness_commit[64];
    char created_utc[32];
    char command_line[8192];
    char *words[HB_PLAN_MAX_WORDS]; /* the settings as flags, e.g. "--candidate" "x.json" "--time-s" "1" */
    size_t n_words;
    char word_text[16384];          /* the words' bytes */
} hb_plan_file;

/* Sets the words (copied) and computes sweep_id; HB_ERR_INTERNAL when they do not fit. */
hb_status hb_plan_file_set_words(hb_plan_file *file, char *const *words, size_t count);
void hb_plan_file_identify(hb_plan_file *file);

/* The settings as one line, words separated by blanks (quoted where needed). */
void hb_plan_file_options_line(const hb_plan_file *file, char *out, size_t size);

/* {"item", "m", "n", "k", "mode"}: one item as plan.json and verdict.json write it. */
json_t *hb_plan_item_json(const hb_sweep_plan *plan, size_t item);

/* Writes <folder>/plan.json atomically. */
hb_status hb_plan_file_write(const char *folder, const hb_plan_file *file);

/* Reads <folder>/plan.json.  HB_ERR_BAD_RESULTS naming the file (and line
 * and column where JSON is malformed) when it is missing, not a regular
 * file, not a plan of a version this harness reads (a newer harness's is
 * said to be one), or edited (its plan_sha256, for version 2, or its
 * sweep_id does not match its contents). */
hb_status hb_plan_file_read(const char *folder, hb_plan_file *file);

/* Whether this build may resume the sweep of `file` (read from `folder`):
 * only a plan it wrote itself, of this version and planned by this very
 * commit (`this_commit`), so that every row of a sweep is measured by the
 * same code.  HB_ERR_BAD_RESULTS otherwise, saying which build resumes it. */
hb_status hb_plan_file_check_resumable(const hb_plan_file *file, const char *folder, const char *this_commit);

/* --dry-run's text: the header (sweep_id, shard, counts, settings) as #
 * lines, then `item,m,n,k,mode` and one line per item of the shard. */
void hb_plan_file_print(FILE *out, const hb_plan_file *file);

#endif
