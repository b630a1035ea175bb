/* --out DIR for report and compare: every file is written into a staging
 * folder inside DIR (DIR/.hgemm-report-XXXXXX, same file system), and only
 * when all of them, figures included, are complete are they renamed into
 * DIR.  An error before that removes the staging folder: DIR never holds a
 * partial file under a final name, and an earlier report's files stay until
 * the new ones replace them.
 *
 * An owned folder (hb_output_own: "report" or "compare") also lists what it
 * published in DIR/.hgemm-OWNER.files, and once the new files are in place
 * removes each file the previous list names that the new one does not (a
 * speedup_server.csv from a report that had a server mode): DIR then holds
 * no stale file beside the new ones.  Only names from that list (or, where
 * DIR has none yet, the command's own file names of before the list) are
 * ever removed, and only plain file names, never a path: files of others in
 * DIR stay. */
#ifndef HB_OUTPUT_FOLDER_H
#define HB_OUTPUT_FOLDER_H

#include <stdio.h>

#include "bench/core/status.h"

#define HB_OUTPUT_PATH_SIZE 4200

typedef struct hb_output_folder {
    char final[HB_OUTPUT_PATH_SIZE]; /* DIR */
    char stage[HB_OUTPUT_PATH_SIZE]; /* DIR/.hgemm-report-XXXXXX */
    char owner[32];                  /* "report", "compare": DIR/.hgemm-OWNER.files; "": not owned */
    const char *const *legacy;       /* NULL-terminated: names the owner wrote before the list existed */
} hb_output_folder;

/* Creates DIR (mkdir -p) and its staging folder.  HB_ERR_IO naming the
 * place otherwise. */
hb_status hb_output_begin(hb_output_folder *out, const char *folder);

/* Makes `owner` the folder's owner (see above); `legacy` (NULL-terminated,
 * or NULL) the file names it may hold from a version without the list. */
void hb_output_own(hb_output_folder *out, const char *owner, const char *const *legacy);

/* The staged path of a file `name` (no '/'). */
hb_status hb_output_path(const hb_output_folder *out, const char *name, char *path, size_t size);

/* Opens the staged file `name` for writing; NULL with the error reported. */
FILE *hb_output_open(const hb_output_folder *out, const char *name);
/* Closes it, HB_ERR_IO if anything written was lost (disk full). */
hb_status hb_output_close(FILE *file, const char *name);

/* Renames every staged file into DIR, then removes the staging folder; for
 * an owned folder, writes the new list and removes the stale files. */
hb_status hb_output_publish(hb_output_folder *out);
/* Removes the staging folder and what it holds (after an error). */
void hb_output_abandon(hb_output_folder *out);

#endif
