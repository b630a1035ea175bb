/* A report document as files in the --out folder: NAME.md and NAME.json
 * (every table), and TABLE.csv for each table (the per-configuration ones
 * included: a report's speedup_offline.csv and speedup_server.csv are in
 * CUDA-L2's published layout). */
#ifndef HB_DOC_FILES_H
#define HB_DOC_FILES_H

#include "bench/analysis/output_folder.h"
#include "bench/analysis/report_doc.h"

/* Writes them into the staging folder of `out` ("report": report.md, report.json). */
hb_status hb_write_doc_files(const hb_doc *doc, const char *name, hb_output_folder *out);

#endif
