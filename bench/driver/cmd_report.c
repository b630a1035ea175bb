/* `report DIR...`: the paper's tables from result folders (docs/reports.md),
 * on stdout in --format, and with --out every table as files, with --plots
 * the figures.  Reads files only: no GPU, no CUDA (it is in hgemm-report). */
#include <stdio.h>

#include "bench/analysis/doc_files.h"
#include "bench/analysis/doc_writers.h"
#include "bench/analysis/figures.h"
#include "bench/analysis/paper_tables.h"
#include "bench/analysis/result_folders.h"
#include "bench/core/diag.h"
#include "bench/driver/commands.h"

/* What --plots needs, checked before anything is read or written. */
static hb_status check_plots(const hb_report_options *o)
{
    if (o->plots && !hb_gnuplot_available())
        return hb_fail(HB_ERR_USAGE, "--plots needs gnuplot on PATH (scripts/install_deps.sh installs it)");
    return HB_OK;
}

static hb_status write_files(const hb_doc *doc, const hb_result_set *set, hb_timer timer, const hb_report_options *o)
{
    hb_output_folder out;
    HB_TRY(hb_output_begin(&out, o->out_dir, "report"));
    hb_status status = hb_write_doc_files(doc, "report", &out);
    if (status == HB_OK && o->plots)
        status = hb_draw_report_figures(set, timer, &out);
    if (status != HB_OK) {
        hb_output_abandon(&out);
        return status;
    }
    return hb_output_publish(&out);
}

static hb_status report(const hb_cli *cli, hb_result_set *set, hb_doc *doc)
{
    const hb_report_options *o = &cli->run.report;
    hb_timer timer = HB_TIMER_EVENT;
    hb_report_format format = HB_FORMAT_MD;
    hb_timer_parse(o->timer, &timer); /* the option parser has checked both */
    hb_report_format_parse(o->format, &format);
    HB_TRY(check_plots(o));
    HB_TRY(hb_read_result_folders((const char *const *)cli->operands, cli->n_operands, set));
    HB_TRY(hb_build_report(set, timer, doc));
    if (o->out_dir)
        HB_TRY(write_files(doc, set, timer, o));
    HB_TRY(hb_doc_write(stdout, doc, format));
    return fflush(stdout) == 0 ? HB_OK : hb_fail(HB_ERR_IO, "writing the report to stdout failed");
}

hb_status hb_cmd_report(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self;
    (void)command_line;
    hb_result_set set;
    hb_result_set_init(&set);
    hb_doc doc;
    hb_doc_init(&doc, "hgemm-bench report");
    hb_status status = report(cli, &set, &doc);
    hb_doc_free(&doc);
    hb_result_set_free(&set);
    return status;
}
