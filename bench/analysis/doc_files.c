#include "bench/analysis/doc_files.h"

#include <stdio.h>

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

hb_status hb_write_doc_files(const hb_doc *doc, const char *name, hb_output_folder *out)
{
    char file_name[128];
    HB_TRY(hb_doc_check_finite(doc));
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
