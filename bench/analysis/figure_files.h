/* The figures a gnuplot script draws, and the check that gnuplot drew each
 * of them whole (docs/reports.md, "Figures").  gnuplot exits 0 when writing
 * a figure fails (a full disk, a file size limit), leaving it empty or cut
 * short; so the script's every `set output` goes through hb_figure_output,
 * which records the name, and after gnuplot hb_figure_files_check reads
 * each recorded file back before anything is published.  The list of
 * figures is the script's own: there is no second list to keep in step. */
#ifndef HB_FIGURE_FILES_H
#define HB_FIGURE_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "bench/analysis/output_folder.h"
#include "bench/core/status.h"

/* A report draws 3 figures per mode, compare 2, each in 2 formats. */
#define HB_FIGURE_FILES_MAX 16
#define HB_FIGURE_NAME_SIZE 96

typedef struct hb_figure_files {
    char names[HB_FIGURE_FILES_MAX][HB_FIGURE_NAME_SIZE]; /* "report_ecdf_offline.png": in the script's folder */
    size_t count;
} hb_figure_files;

/* Writes `set output 'STEM.EXTENSION'` into `script` and records the name.
 * HB_ERR_INTERNAL when the list is full or the name too long. */
hb_status hb_figure_output(FILE *script, hb_figure_files *drawn, const char *stem, const char *extension);

/* After gnuplot has run in out's staging folder: each recorded figure there
 * exists, is a regular file (not a link) and is whole (.png: PNG's 8-byte
 * signature and, last, an IEND chunk; .svg: ends with </svg> and white
 * space at most); each is synced to the disk, then the folder.  HB_ERR_IO
 * naming the first that is not, and saying the disk may be full. */
hb_status hb_figure_files_check(const hb_figure_files *drawn, const hb_output_folder *out);

#endif
