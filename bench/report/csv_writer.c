#define _POSIX_C_SOURCE 200809L /* fdopen */
#include "bench/report/csv_writer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/csv_text.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/report/summary_columns.h"

void hb_csv_write_field(FILE *out, const char *text)
{
    const char *guard = hb_csv_text_guarded(text) ? "'" : "";
    if (!strpbrk(text, ",\"\n\r")) {
        fprintf(out, "%s%s", guard, text);
        return;
    }
    fprintf(out, "\"%s", guard);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* A number as summary.csv has always written one (%.9g), a text quoted as
 * RFC 4180 asks and guarded against formulas (bench/core/csv_text.h), an
 * empty cell as nothing between the commas. */
static void write_cell(FILE *out, const hb_cell *cell)
{
    if (cell->kind == HB_CELL_NUMBER)
        fprintf(out, "%.9g", cell->number);
    else if (cell->kind == HB_CELL_TEXT)
        hb_csv_write_field(out, hb_cell_text(cell));
}

/* One line over the column table: the header when `row` is NULL, else the
 * row's cells.  Both come from the same loop, so they cannot drift apart. */
static void write_line(FILE *out, const hb_row *row)
{
    for (size_t i = 0; i < hb_summary_column_count(); i++) {
        const hb_column *column = hb_summary_column(i);
        hb_cell cell = row ? column->value(row) : hb_cell_string(column->name);
        if (i)
            fputc(',', out);
        write_cell(out, &cell);
    }
    fputc('\n', out);
}

void hb_csv_write_header(FILE *out)
{
    write_line(out, NULL);
}

hb_status hb_csv_write_config(FILE *out, const char *run_id, const char *acc_class, const hb_config_result *result)
{
    for (size_t i = 0; i < result->count; i++) {
        hb_row row = {run_id, acc_class, result, &result->participants[i]};
        write_line(out, &row);
    }
    if (fflush(out) != 0 || ferror(out))
        return hb_fail(HB_ERR_IO, "writing summary.csv failed (disk full?)");
    return HB_OK;
}

/* The sink: <run folder>/summary.csv, its header when the run begins and a
 * configuration's rows, flushed, as soon as it finishes. */
static hb_status csv_begin(hb_sink *self, const hb_run_record *run)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.csv", run->run_path);
    int fd; /* the run folder is new: summary.csv is too, never a link or FIFO someone put there */
    HB_TRY(hb_create_new_file(path, NULL, &fd));
    FILE *file = fdopen(fd, "w");
    if (!file) {
        close(fd);
        return hb_fail(HB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    self->state = file;
    hb_csv_write_header(file);
    if (fflush(file) != 0 || ferror(file))
        return hb_fail(HB_ERR_IO, "writing %s failed (disk full?)", path);
    return HB_OK;
}

static hb_status csv_config(hb_sink *self, const hb_run_record *run, const hb_config_result *result)
{
    if (!self->state)
        return HB_ERR_IO; /* begin failed and said why */
    return hb_csv_write_config(self->state, run->run_id, hb_acc_class_name(run->options->acc), result);
}

/* Every row was flushed as it came; the close syncs the file, and a disk
 * that filled up in between is said (the rows a reader gets were checked). */
static void csv_close(hb_sink *self)
{
    if (self->state)
        hb_finish_stream(self->state, "summary.csv");
    self->state = NULL;
}

static const hb_sink_ops csv_ops = {.name = "summary.csv", .begin = csv_begin, .config = csv_config,
                                    .close = csv_close};

hb_sink hb_summary_csv_sink(void)
{
    hb_sink sink = {&csv_ops, NULL};
    return sink;
}
