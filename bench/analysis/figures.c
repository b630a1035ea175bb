#define _POSIX_C_SOURCE 200809L
#include "bench/analysis/figures.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/analysis/paper_tables.h"
#include "bench/core/diag.h"

static const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
#define MODE_COUNT (sizeof modes / sizeof modes[0])

/* The terminals every figure is drawn in: the file's extension and the set-up. */
static const struct {
    const char *extension, *terminal;
} terminals[] = {
    {"png", "pngcairo size 1200,700 noenhanced font ',11'"},
    {"svg", "svg size 1200,700 noenhanced font ',11' background '#ffffff'"},
};
#define TERMINAL_COUNT (sizeof terminals / sizeof terminals[0])

int hb_gnuplot_available(void)
{
    const char *path = getenv("PATH");
    char candidate[4200];
    while (path && *path) {
        size_t length = strcspn(path, ":");
        if ((size_t)snprintf(candidate, sizeof candidate, "%.*s/gnuplot", (int)length, length ? path : ".") <
                sizeof candidate &&
            access(candidate, X_OK) == 0)
            return 1;
        path += length + (path[length] == ':');
    }
    return 0;
}

/* --- the script's preamble: the columns and their styles ------------------------------------- */

static void write_styles(FILE *gp)
{
    fputs("# Drawn by hgemm-bench (docs/reports.md, \"Figures\"): run `gnuplot FILE.gp` in this folder to\n"
          "# redraw.  The styles are the baseline registry's (hgemm-bench baselines).\n"
          "set datafile separator whitespace\nset grid\nset key outside right top\nnames = \"",
          gp);
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        fprintf(gp, "%s%s", c ? " " : "", hb_speedup_column_at(c)->name);
    fputs("\"\n", gp);
    for (size_t c = 0; c < hb_speedup_column_count(); c++)
        fprintf(gp, "set linetype %zu %s\n", c + 1, hb_speedup_column_at(c)->plot_style); /* reset keeps linetypes */
}

/* The same figure in every terminal: `setup` (title, axes), then `plot`. */
static void write_figure(FILE *gp, const char *stem, const char *setup, const char *plot)
{
    for (size_t t = 0; t < TERMINAL_COUNT; t++)
        fprintf(gp, "set terminal %s\nset output '%s.%s'\n%s\n%s\n", terminals[t].terminal, stem,
                terminals[t].extension, setup, plot);
    fputs("reset\nset grid\nset key outside right top\n", gp);
}

/* --- running gnuplot ------------------------------------------------------------------------------ */

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
 * (removed when it succeeds: only the figures are published). */
static hb_status run_gnuplot(const hb_output_folder *out, const char *script)
{
    char log[HB_OUTPUT_PATH_SIZE + 64];
    HB_TRY(hb_output_path(out, "gnuplot.log", log, sizeof log));
    fflush(NULL);
    pid_t child = fork();
    if (child < 0)
        return hb_fail(HB_ERR_IO, "cannot start gnuplot: %s", strerror(errno));
    if (child == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || chdir(out->stage) != 0 || dup2(fd, STDERR_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR)
            return hb_fail(HB_ERR_IO, "waiting for gnuplot failed: %s", strerror(errno));
    char tail[512];
    log_tail(log, tail, sizeof tail);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return hb_fail(HB_ERR_IO, "gnuplot failed on %s (status %d)%s%s", script,
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1, tail[0] ? ": " : "", tail);
    if (unlink(log) != 0)
        return hb_fail(HB_ERR_IO, "cannot remove %s: %s", log, strerror(errno));
    return HB_OK;
}

/* --- the report's figures ----------------------------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One data block per column (gnuplot's `index`), each ended by two blank
 * lines; a column without data gets one NaN line, so the indices stay put. */
static hb_status write_mode_data(const hb_result_set *set, hb_timer timer, hb_mode mode, FILE *size, FILE *ecdf)
{
    double *values = malloc((set->count ? set->count : 1) * sizeof *values);
    if (!values)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory drawing %zu configurations", set->count);
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        size_t n = 0;
        fprintf(size, "# %s\n", hb_speedup_column_at(c)->name);
        fprintf(ecdf, "# %s\n", hb_speedup_column_at(c)->name);
        for (size_t i = 0; i < set->count; i++) {
            const hb_config_entry *e = &set->entries[i];
            double r = hb_config_ratio(e, timer, HB_EST_PAPER, c);
            if (e->key.mode != mode || !hb_config_counts(e) || !(r > 0))
                continue;
            fprintf(size, "%.6f %.6g\n", log2((double)e->key.m) + log2((double)e->key.n) + log2((double)e->key.k), r);
            values[n++] = r;
        }
        qsort(values, n, sizeof *values, by_value);
        for (size_t i = 0; i < n; i++) /* the step to (i+1)/n at each value */
            fprintf(ecdf, "%.6g %.6g\n", values[i], (double)(i + 1) / (double)n);
        if (n == 0) {
            fputs("NaN NaN\n", size);
            fputs("NaN NaN\n", ecdf);
        }
        fputs("\n\n", size);
        fputs("\n\n", ecdf);
    }
    free(values);
    return HB_OK;
}

static hb_status write_data_files(const hb_result_set *set, hb_timer timer, hb_mode mode, const hb_output_folder *out)
{
    char size_name[64], ecdf_name[64];
    snprintf(size_name, sizeof size_name, "report_size_%s.dat", hb_mode_name(mode));
    snprintf(ecdf_name, sizeof ecdf_name, "report_ecdf_%s.dat", hb_mode_name(mode));
    FILE *size = hb_output_open(out, size_name);
    FILE *ecdf = size ? hb_output_open(out, ecdf_name) : NULL;
    hb_status status = size && ecdf ? write_mode_data(set, timer, mode, size, ecdf) : HB_ERR_IO;
    hb_status closed = size ? hb_output_close(size, size_name) : HB_OK;
    if (ecdf && hb_output_close(ecdf, ecdf_name) != HB_OK && closed == HB_OK)
        closed = HB_ERR_IO;
    return status != HB_OK ? status : closed;
}

static void write_report_plots(FILE *gp, hb_mode mode, hb_timer timer)
{
    const char *m = hb_mode_name(mode);
    char stem[64], setup[512], plot[512];
    snprintf(stem, sizeof stem, "report_speedup_vs_size_%s", m);
    snprintf(setup, sizeof setup,
             "set title 'Speedup over each baseline by problem size, %s mode (paper estimator, %s)'\n"
             "set xlabel 'log2(M*N*K)'\nset ylabel 't_base / t_cand (log scale)'\nset logscale y",
             m, hb_timer_words(timer));
    snprintf(plot, sizeof plot,
             "plot for [i=1:words(names)] 'report_size_%s.dat' index (i-1) using 1:2 with points lt i ps 0.6 "
             "title word(names, i), 1 with lines lt -1 lw 1 notitle",
             m);
    write_figure(gp, stem, setup, plot);
    snprintf(stem, sizeof stem, "report_ecdf_%s", m);
    snprintf(setup, sizeof setup,
             "set title 'ECDF of the per-configuration speedups, %s mode (paper estimator, %s)'\n"
             "set xlabel 't_base / t_cand (log scale)'\nset ylabel 'share of configurations <= x'\nset logscale x\n"
             "set yrange [0:1]\nset arrow from 1, graph 0 to 1, graph 1 nohead lt -1",
             m, hb_timer_words(timer));
    snprintf(plot, sizeof plot,
             "plot for [i=1:words(names)] 'report_ecdf_%s.dat' index (i-1) using 1:2 with steps lt i "
             "title word(names, i)",
             m);
    write_figure(gp, stem, setup, plot);
}

hb_status hb_draw_report_figures(const hb_result_set *set, hb_timer timer, const hb_output_folder *out)
{
    static const char script[] = "report_figures.gp";
    FILE *gp = hb_output_open(out, script);
    if (!gp)
        return HB_ERR_IO;
    write_styles(gp);
    hb_status status = HB_OK;
    for (size_t m = 0; m < MODE_COUNT && status == HB_OK; m++) {
        int present = 0;
        for (size_t i = 0; i < set->count; i++)
            present |= set->entries[i].key.mode == modes[m] && hb_config_counts(&set->entries[i]);
        if (!present)
            continue;
        status = write_data_files(set, timer, modes[m], out);
        write_report_plots(gp, modes[m], timer);
    }
    hb_status closed = hb_output_close(gp, script);
    HB_TRY(status);
    HB_TRY(closed);
    return run_gnuplot(out, script);
}

/* --- compare's figure ---------------------------------------------------------------------------- */

static hb_status write_compare_data(const hb_compare_input *in, FILE *data)
{
    for (size_t c = 0; c < hb_speedup_column_count(); c++) {
        size_t n = 0;
        fprintf(data, "# %s: published ours\n", hb_speedup_column_at(c)->name);
        for (size_t i = 0; i < in->ours->count; i++) {
            const hb_config_entry *e = &in->ours->entries[i];
            if (e->key.mode != in->mode || !hb_config_counts(e))
                continue;
            const hb_published_row *r = hb_published_find(in->theirs, e->key.m, e->key.n, e->key.k);
            double o = hb_config_ratio(e, in->timer, HB_EST_PAPER, c);
            if (r && o > 0 && r->ratio[c] > 0) {
                fprintf(data, "%.6g %.6g\n", r->ratio[c], o);
                n++;
            }
        }
        fputs(n ? "\n\n" : "NaN NaN\n\n\n", data);
    }
    return ferror(data) ? hb_fail(HB_ERR_IO, "writing compare's figure data failed") : HB_OK;
}

hb_status hb_draw_compare_figures(const hb_compare_input *in, const hb_output_folder *out)
{
    static const char script[] = "compare_figures.gp";
    const char *m = hb_mode_name(in->mode);
    char data_name[64], stem[64], setup[512], plot[512];
    snprintf(data_name, sizeof data_name, "compare_%s.dat", m);
    FILE *data = hb_output_open(out, data_name);
    if (!data)
        return HB_ERR_IO;
    hb_status status = write_compare_data(in, data);
    hb_status closed = hb_output_close(data, data_name);
    HB_TRY(status);
    HB_TRY(closed);
    FILE *gp = hb_output_open(out, script);
    if (!gp)
        return HB_ERR_IO;
    write_styles(gp);
    snprintf(stem, sizeof stem, "compare_%s", m);
    snprintf(setup, sizeof setup,
             "set title 'Ours against published, per configuration, %s mode (t_base / t_cand)'\n"
             "set xlabel 'published (log scale)'\nset ylabel 'ours (log scale)'\nset logscale xy\nset size ratio -1",
             m);
    snprintf(plot, sizeof plot,
             "plot for [i=1:words(names)] '%s' index (i-1) using 1:2 with points lt i ps 0.6 title word(names, i), "
             "x with lines lt -1 lw 1 title 'y = x'",
             data_name);
    write_figure(gp, stem, setup, plot);
    HB_TRY(hb_output_close(gp, script));
    return run_gnuplot(out, script);
}
