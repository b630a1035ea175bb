#define _POSIX_C_SOURCE 200809L
#include "bench/analysis/figure_script.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "bench/analysis/candidate_title.h"
#include "bench/analysis/gnuplot_text.h"
#include "bench/analysis/speedup_columns.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/process.h"

/* The terminals every figure is drawn in: the file's extension, the driver and its set-up after the size. */
static const struct {
    const char *extension, *driver, *options;
} terminals[] = {
    {"png", "pngcairo", "noenhanced font ',11'"},
    {"svg", "svg", "noenhanced font ',11' background '#ffffff'"},
};
#define TERMINAL_COUNT (sizeof terminals / sizeof terminals[0])

/* What every figure starts from, and is reset to after each. */
static const char defaults[] = "set grid\nset key outside right top\n";

size_t hb_figure_terminal_count(void) { return TERMINAL_COUNT; }

/* Every string of the script that is not a constant here (a folder's GPU
 * and candidate names; the registry's column names) is written by
 * hb_gnuplot_string (bench/analysis/gnuplot_text.h): the commands are ours
 * alone, and a folder's text is never read as one. */
void hb_figure_styles(FILE *gp)
{
    char names[1024] = "";
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", c ? " " : "",
                 hb_speedup_column_at(c)->name);
    fprintf(gp,
            "# Drawn by hgemm-bench (docs/reports.md, \"Figures\"): run `gnuplot FILE.gp` in this folder to\n"
            "# redraw.  The styles are the baseline registry's (hgemm-bench baselines).\n"
            "set datafile separator whitespace\n%snames = ",
            defaults);
    hb_gnuplot_string(gp, names);
    fputc('\n', gp);
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        fprintf(gp, "set linetype %zu %s\n", c + 1, hb_speedup_column_at(c)->plot_style); /* reset keeps linetypes */
}

hb_status hb_figure_begin(FILE *gp, hb_figure_files *drawn, const char *stem, size_t terminal, const char *size)
{
    fprintf(gp, "set terminal %s size %s %s\n", terminals[terminal].driver, size, terminals[terminal].options);
    return hb_figure_output(gp, drawn, stem, terminals[terminal].extension);
}

void hb_figure_end(FILE *gp) { fprintf(gp, "reset\n%s", defaults); }

hb_status hb_figure_write(FILE *gp, hb_figure_files *drawn, const char *stem, const char *size, const char *setup,
                          const char *plot)
{
    for (size_t t = 0; t < TERMINAL_COUNT; t++) {
        HB_TRY(hb_figure_begin(gp, drawn, stem, t, size));
        fprintf(gp, "%s\n%s\n", setup, plot);
    }
    hb_figure_end(gp);
    return HB_OK;
}

hb_status hb_figure_empty(FILE *gp, hb_figure_files *drawn, const char *stem, const char *size, const char *title,
                          const char *reason)
{
    char said[600];
    snprintf(said, sizeof said, "No configuration to plot: %s", reason);
    fputs("empty_reason = ", gp);
    hb_gnuplot_string(gp, said);
    fputc('\n', gp);
    for (size_t t = 0; t < TERMINAL_COUNT; t++) {
        HB_TRY(hb_figure_begin(gp, drawn, stem, t, size));
        /* nothing drawn inside the range: a constant above it, so gnuplot has a plot and no data to warn of */
        fprintf(gp,
                "set title %s\nunset key\nunset tics\nunset border\nunset grid\nset xrange [0:1]\nset yrange [0:1]\n"
                "set label 1 empty_reason at graph 0.5, 0.5 center font ',14'\nplot 2 notitle\n",
                title);
    }
    hb_figure_end(gp);
    return HB_OK;
}

void hb_figure_title_facts(FILE *gp, const hb_result_set *set, size_t configs, const char *how)
{
    char gpus[512] = "", candidates[1024], text[1800];
    for (size_t i = 0; i < set->n_gpus; i++)
        snprintf(gpus + strlen(gpus), sizeof gpus - strlen(gpus), "%s%s", i ? "; " : "", set->gpus[i]);
    hb_candidate_titles(set, candidates, sizeof candidates);
    snprintf(text, sizeof text, "GPU: %s; candidate: %s; n = %zu configurations; %s", gpus[0] ? gpus : "not recorded",
             candidates[0] ? candidates : "not recorded", configs, how);
    fputs("title_facts = ", gp);
    hb_gnuplot_string(gp, text);
    fputc('\n', gp);
}

/* The last lines gnuplot wrote, for the error message. */
static void log_tail(const char *log, char *out, size_t size)
{
    FILE *f = fopen(log, "r");
    out[0] = '\0';
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(out, size, "%s", line);
    }
    fclose(f);
}

/* gnuplot SCRIPT in the staging folder, its messages into a log there
 * (removed when it succeeds: only the figures are published).  Found in
 * $PATH and run with an argument vector, never through a shell. */
static hb_status run_gnuplot(const hb_output_folder *out, const char *script)
{
    char log[HB_OUTPUT_PATH_SIZE + 64];
    HB_TRY(hb_output_path(out, "gnuplot.log", log, sizeof log));
    int log_fd;
    HB_TRY(hb_open_output(log, 0, &log_fd));
    char *argv[] = {"gnuplot", (char *)script, NULL};
    hb_process gnuplot = HB_PROCESS_INIT;
    gnuplot.argv = argv;
    gnuplot.search_path = 1;
    gnuplot.cwd = out->stage;
    gnuplot.in = HB_FD_NULL;
    gnuplot.out = gnuplot.err = log_fd;
    /* signals as the harness has them: a SIGXFSZ it ignores (a file-size limit) then makes gnuplot's write fail
     * with EFBIG, which the figure check reports as a full disk, instead of killing gnuplot */
    gnuplot.default_signals = 0;
    hb_process_end end;
    hb_status ran = hb_process_run(&gnuplot, 0, NULL, &end);
    close(log_fd);
    if (ran != HB_OK)
        return HB_ERR_IO; /* the reason is above: gnuplot missing from PATH, or it could not be started */
    char tail[512], how[96];
    log_tail(log, tail, sizeof tail);
    hb_process_end_text(&end, how, sizeof how);
    if (!end.exited || end.code != 0)
        return hb_fail(HB_ERR_IO, "gnuplot failed on %s (%s)%s%s", script, how, tail[0] ? ": " : "", tail);
    if (unlink(log) != 0)
        return hb_fail(HB_ERR_IO, "cannot remove %s: %s", log, strerror(errno));
    return HB_OK;
}

hb_status hb_figure_run(const hb_output_folder *out, const char *script, const hb_figure_files *drawn)
{
    HB_TRY(run_gnuplot(out, script));
    return hb_figure_files_check(drawn, out);
}
