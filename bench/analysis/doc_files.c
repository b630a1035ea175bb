#include "bench/analysis/doc_files.h"

#include <stdio.h>
#include <string.h>

#include "bench/analysis/doc_writers.h"

typedef hb_status (*doc_writer)(FILE *out, const hb_doc *doc);

static hb_status write_one(const hb_output_folder *out, const char *file_name, const hb_doc *doc, doc_writer write,
                           const hb_doc_table *table)
{
    FILE *file = hb_output_open(out, file_name);
    if (!file)
        return HB_ERR_IO;
    hb_status status = table ? hb_doc_write_table_csv(file, table) : write(file, doc);
    hb_status closed = hb_output_close(file, file_name);
    return status != HB_OK ? status : closed;
}

/* The files report and compare wrote into --out before DIR/.hgemm-NAME.files
 * listed them (docs/reports.md, "Output"): removed where the new ones lack
 * them and DIR has no list yet. */
static const char *const *legacy_names(const char *name)
{
    static const char *const report[] = {
        "report.md", "report.json", "table1.csv", "table2.csv", "table3.csv", "excluded.csv", "not_run.csv",
        "speedup_offline.csv", "speedup_server.csv", "report_figures.gp", "report_size_offline.dat",
        "report_size_server.dat", "report_ecdf_offline.dat", "report_ecdf_server.dat",
        "report_speedup_vs_size_offline.png", "report_speedup_vs_size_offline.svg",
        "report_speedup_vs_size_server.png", "report_speedup_vs_size_server.svg", "report_ecdf_offline.png",
        "report_ecdf_offline.svg", "report_ecdf_server.png", "report_ecdf_server.svg", NULL};
    static const char *const compare[] = {
        "compare.md", "compare.json", "compare_summary.csv", "compare_disagreements.csv", "compare_missing.csv",
        "compare_configs.csv", "compare_figures.gp", "compare_offline.dat", "compare_server.dat",
        "compare_offline.png", "compare_offline.svg", "compare_server.png", "compare_server.svg", NULL};
    return !strcmp(name, "report") ? report : !strcmp(name, "compare") ? compare : NULL;
}

hb_status hb_write_doc_files(const hb_doc *doc, const char *name, hb_output_folder *out)
{
    char file_name[128];
    HB_TRY(hb_doc_check_finite(doc));
    hb_output_own(out, name, legacy_names(name));
    snprintf(file_name, sizeof file_name, "%s.md", name);
    HB_TRY(write_one(out, file_name, doc, hb_doc_write_markdown, NULL));
    snprintf(file_name, sizeof file_name, "%s.json", name);
    HB_TRY(write_one(out, file_name, doc, hb_doc_write_json, NULL));
    for (size_t i = 0; i < doc->n_tables; i++) {
        snprintf(file_name, sizeof file_name, "%s.csv", doc->tables[i]->name);
        HB_TRY(write_one(out, file_name, doc, NULL, doc->tables[i]));
    }
    return HB_OK;
}
