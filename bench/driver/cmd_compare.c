/* `compare DIR... --published FILE.csv`: our per-configuration speedups
 * against a published file in CUDA-L2's layout, for one mode
 * (docs/reports.md, "compare").  Reads files only: no GPU, no CUDA. */
#include <stdio.h>
#include <string.h>

#include "bench/analysis/comparison.h"
#include "bench/analysis/doc_files.h"
#include "bench/analysis/doc_writers.h"
#include "bench/analysis/figures.h"
#include "bench/analysis/published_layout.h"
#include "bench/analysis/result_folders.h"
#include "bench/core/diag.h"
#include "bench/driver/commands.h"

/* The mode a file name says: "..._offline.csv" or "..._server.csv" (CUDA-L2's
 * names, and the report's speedup_<mode>.csv); 0 if it says neither. */
static int mode_of_file_name(const char *path, hb_mode *mode)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    static const struct {
        const char *suffix;
        hb_mode mode;
    } suffixes[] = {{"_offline.csv", HB_MODE_OFFLINE}, {"_server.csv", HB_MODE_SERVER}};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t length = strlen(name), suffix = strlen(suffixes[i].suffix);
        if (length >= suffix && !strcmp(name + length - suffix, suffixes[i].suffix)) {
            *mode = suffixes[i].mode;
            return 1;
        }
    }
    return 0;
}

/* --mode, else the file name; says which in `source`. */
static hb_status choose_mode(const hb_report_options *o, hb_mode *mode, const char **source)
{
    hb_mode named;
    int from_name = mode_of_file_name(o->published, &named);
    if (o->mode) {
        hb_mode_parse(o->mode, mode); /* checked by the option parser */
        *source = "--mode";
        if (from_name && named != *mode)
            hb_warn("--mode %s, but %s names the %s mode; comparing as --mode says", o->mode, o->published,
                    hb_mode_name(named));
        return HB_OK;
    }
    if (!from_name)
        return hb_fail(HB_ERR_USAGE,
                       "compare: which mode is %s? Its name ends in neither _offline.csv nor _server.csv: give --mode "
                       "offline or --mode server",
                       o->published);
    *mode = named;
    *source = "the published file's name";
    return HB_OK;
}

static hb_status write_files(const hb_doc *doc, const hb_compare_input *in, const hb_report_options *o)
{
    hb_output_folder out;
    HB_TRY(hb_output_begin(&out, o->out_dir));
    hb_status status = hb_write_doc_files(doc, "compare", &out);
    if (status == HB_OK && o->plots)
        status = hb_draw_compare_figures(in, &out);
    if (status != HB_OK) {
        hb_output_abandon(&out);
        return status;
    }
    return hb_output_publish(&out);
}

static hb_status compare(const hb_cli *cli, hb_result_set *set, hb_published_table *theirs, hb_doc *doc)
{
    const hb_report_options *o = &cli->run.report;
    hb_compare_input in = {.ours = set, .theirs = theirs, .published_path = o->published};
    hb_report_format format = HB_FORMAT_MD;
    hb_timer_parse(o->timer, &in.timer); /* the option parser has checked both */
    hb_report_format_parse(o->format, &format);
    HB_TRY(choose_mode(o, &in.mode, &in.mode_source));
    if (o->plots && !hb_gnuplot_available())
        return hb_fail(HB_ERR_USAGE, "--plots needs gnuplot on PATH (scripts/install_deps.sh installs it)");
    HB_TRY(hb_read_result_folders((const char *const *)cli->operands, cli->n_operands, set));
    HB_TRY(hb_read_published(o->published, theirs));
    HB_TRY(hb_build_comparison(&in, doc));
    if (o->out_dir)
        HB_TRY(write_files(doc, &in, o));
    HB_TRY(hb_doc_write(stdout, doc, format));
    return fflush(stdout) == 0 ? HB_OK : hb_fail(HB_ERR_IO, "writing the comparison to stdout failed");
}

hb_status hb_cmd_compare(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self;
    (void)command_line;
    hb_result_set set;
    hb_result_set_init(&set);
    hb_published_table theirs = {0};
    hb_doc doc;
    hb_doc_init(&doc, "hgemm-bench compare");
    hb_status status = compare(cli, &set, &theirs, &doc);
    hb_doc_free(&doc);
    hb_published_free(&theirs);
    hb_result_set_free(&set);
    return status;
}
