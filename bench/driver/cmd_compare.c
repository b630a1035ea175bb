/* `compare DIR... --published FILE.csv`: our per-configuration speedups
 * against a published file in CUDA-L2's layout, for one mode
 * (docs/reports.md, "compare").  Reads files only: no GPU, no CUDA. */
#include <stdio.h>
#include <string.h>

#include "bench/analysis/compare_guard.h"
#include "bench/analysis/comparison.h"
#include "bench/analysis/doc_files.h"
#include "bench/analysis/doc_writers.h"
#include "bench/analysis/figures.h"
#include "bench/analysis/published_layout.h"
#include "bench/analysis/published_name.h"
#include "bench/analysis/result_folders.h"
#include "bench/core/diag.h"
#include "bench/driver/commands.h"

/* --mode, else the file name; says which in `source`. */
static hb_status choose_mode(const hb_report_options *o, hb_compare_input *in)
{
    const hb_published_name *name = &in->name;
    if (o->mode) {
        hb_mode_parse(o->mode, &in->mode); /* checked by the option parser */
        in->mode_source = "--mode";
        in->mode_forced = 1;
        if (name->has_mode && name->mode != in->mode)
            hb_warn("--mode %s, but %s names the %s mode; comparing as --mode says", o->mode, o->published,
                    hb_mode_name(name->mode));
        return HB_OK;
    }
    if (!name->has_mode)
        return hb_fail(HB_ERR_USAGE,
                       "compare: which mode is %s? Its name ends in neither _offline.csv nor _server.csv: give --mode "
                       "offline or --mode server",
                       o->published);
    in->mode = name->mode;
    in->mode_source = "the published file's name";
    return HB_OK;
}

/* A note in the header where --mode overrode the file's name. */
static hb_status note_forced_mode(const hb_compare_input *in, hb_doc *doc)
{
    if (!in->mode_forced || !in->name.has_mode || in->name.mode == in->mode)
        return HB_OK;
    return hb_doc_note(doc, "--mode %s: ours of that mode against %s, whose name says the %s mode",
                       hb_mode_name(in->mode), in->published_path, hb_mode_name(in->name.mode));
}

/* --threshold: exit 15 once every file is written, when a configuration is below it. */
static hb_status threshold_verdict(const hb_compare_input *in, const hb_compare_outcome *out)
{
    if (in->threshold < 0 || !out->below_threshold)
        return HB_OK;
    hb_warn("compare: %zu of %zu (configuration, baseline) figures are below the published ones beyond their noise "
            "and by more than --threshold %g%% (compare_status; each in compare_timer_configs)",
            out->below_threshold, out->pairs, 100 * in->threshold);
    return HB_ERR_BELOW_PUBLISHED;
}

static hb_status write_files(const hb_doc *doc, const hb_compare_input *in, const hb_report_options *o)
{
    hb_output_folder out;
    HB_TRY(hb_output_begin(&out, o->out_dir, "compare"));
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
    hb_compare_input in = {.ours = set,
                           .theirs = theirs,
                           .published_path = o->published,
                           .noise_floor = o->noise,
                           .threshold = o->threshold_given ? o->threshold : -1.0};
    hb_report_format format = HB_FORMAT_MD;
    hb_timer_parse(o->timer, &in.timer); /* the option parser has checked both */
    hb_report_format_parse(o->format, &format);
    HB_TRY(hb_published_check_file(o->published)); /* a wrong path named as one, before its name is asked the mode */
    hb_published_name_parse(o->published, &in.name);
    HB_TRY(choose_mode(o, &in));
    if (o->plots && !hb_gnuplot_available())
        return hb_fail(HB_ERR_USAGE, "--plots needs gnuplot on PATH (scripts/install_deps.sh installs it)");
    HB_TRY(hb_read_result_folders((const char *const *)cli->operands, cli->n_operands, set));
    HB_TRY(hb_read_published(o->published, theirs));
    HB_TRY(hb_compare_guard(&in, doc)); /* before any output: a mode or class the two do not share */
    HB_TRY(note_forced_mode(&in, doc));
    hb_compare_outcome outcome;
    HB_TRY(hb_build_comparison(&in, doc, &outcome));
    if (o->out_dir)
        HB_TRY(write_files(doc, &in, o));
    HB_TRY(hb_doc_write(stdout, doc, format));
    if (fflush(stdout) != 0)
        return hb_fail(HB_ERR_IO, "writing the comparison to stdout failed");
    return threshold_verdict(&in, &outcome);
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
