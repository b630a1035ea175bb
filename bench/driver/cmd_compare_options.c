/* The flags of compare (bench/driver/cmd_compare.c): the published file and
 * how it is held against ours, beside report's output group. */
#include "bench/core/diag.h"
#include "bench/driver/command_options.h"
#include "bench/driver/option_values.h"

static hb_status parse_mode_name(const hb_option_row *o, const char *text, hb_run_options *run)
{
    hb_mode mode;
    if (!hb_mode_parse(text, &mode))
        return hb_fail(HB_ERR_USAGE, "--%s expects offline or server, got '%s'", o->flag, text);
    run->report.mode = text;
    return HB_OK;
}

/* Percent, 0 allowed (any shortfall beyond the noise), kept as a fraction. */
static hb_status parse_threshold(const hb_option_row *o, const char *text, hb_run_options *run)
{
    double percent;
    HB_TRY(hb_opt_range(o, text, 0, "a percentage", &percent));
    run->report.threshold = percent / 100.0;
    run->report.threshold_given = 1;
    return HB_OK;
}

static const hb_option_row compare_rows[] = {
    {.flag = "published", .value = "FILE", .section = HB_SECTION_INPUT, HB_OPT_TEXT,
     HB_OPTION_FIELD(report.published),
     .help = "the published per-configuration speedups to compare with (CUDA-L2's layout); required",
     .doc_default = "required",
     .doc = "the published per-configuration speedups, in CUDA-L2's layout (`mnk,torch.matmul,cuBLAS-tn,...`)"},
    {.flag = "mode", .value = "MODE", .section = HB_SECTION_INPUT, .parse = parse_mode_name,
     .format = hb_opt_format_text, HB_OPTION_FIELD(report.mode),
     .help = "the published file's mode, offline or server (default: from its name, ..._offline.csv or "
             "..._server.csv)",
     .doc_default = "from the file name",
     .doc = "the mode compared, `offline` or `server`; without it, the published file's name says (`_offline.csv` "
            "or `_server.csv`; exit 2 if it says neither), and folders holding no configuration of that mode are "
            "refused (exit 14). With it, ours of that mode are held against the file whatever its name says (a "
            "warning where the name says the other)"},
    {.flag = "noise", .value = "PCT", .section = HB_SECTION_INPUT, HB_OPT_PERCENT(100), HB_OPTION_FIELD(report.noise),
     .help = "the published figures' noise in percent, in (0, 100]: a configuration within the larger of it and our "
             "own CI half-width of the published figure is the same (default: ours only)",
     .doc = "the published figures' noise in percent, in (0, 100]: a configuration whose figure is within the larger "
            "of it and our own 95 % CI half-width of the published one is `same` (docs/reports.md, \"Status against "
            "the noise\"). Without it, our CI alone"},
    {.flag = "threshold", .value = "PCT", .section = HB_SECTION_INPUT, .parse = parse_threshold,
     .format = hb_opt_format_percent, .low = 0, .high = 1000, HB_OPTION_FIELD(report.threshold),
     .help = "exit 15 if any configuration's speedup is below the published one beyond its noise and by more than "
             "PCT percent, in 0..1000",
     .doc = "exit 15 if any (configuration, baseline) figure of ours is `slower` than the published one and below it "
            "by more than PCT percent, in 0..1000; without it the statuses are counted and the exit code is 0"},
};
static const hb_option_group compare_options = HB_OPTION_GROUP(compare_rows);

const hb_option_group *const hb_compare_option_list[] = {&hb_output_options, &compare_options, &hb_common_options,
                                                         NULL};

hb_status hb_compare_options_check(const hb_option_parse *p)
{
    if (!p->run->report.published)
        return hb_fail(HB_ERR_USAGE, "compare: --published FILE.csv is required (the published speedups to compare "
                       "with)");
    return hb_report_options_check(p);
}
