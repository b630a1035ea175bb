#define _POSIX_C_SOURCE 200809L /* glob, fileno */
#include "bench/driver/reproduce_state.h"

#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/core/json_file.h"
#include "bench/core/out_file.h"
#include "bench/core/process_start.h"

#define STATE_MAX_BYTES (1u << 20)
#define LOG_TAIL_BYTES (4u << 20) /* the log's end the status reads: its last error and progress line */

static double now_epoch_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* --- the state file ------------------------------------------------------------------ */

hb_status hb_repro_state_write(const char *out_dir, const char *suffix, const hb_repro_state *s)
{
    char path[4400];
    snprintf(path, sizeof path, "%.4000s/reproduce-state%s.json", out_dir, suffix);
    json_t *root = json_pack("{s:s, s:i, s:I, s:s, s:f, s:s, s:s, s:i, s:i, s:f, s:I, s:I, s:s, s:s, s:b, s:i}",
                             "format", HB_REPRO_STATE_FORMAT, "version", 1, "pid", (json_int_t)s->pid, "pid_start",
                             "", "started_s", s->started_s, "stage", s->stage, "form", s->form, "stage_index",
                             s->stage_index, "stage_count", s->stage_count, "stage_started_s", s->stage_started_s,
                             "total", (json_int_t)s->total, "done_at_start", (json_int_t)s->done_at_start, "journal",
                             s->journal, "log", s->log, "ended", s->ended, "exit_code", s->exit_code);
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    char ticks[32]; /* a string: jansson's integers are signed, the kernel's ticks are not */
    snprintf(ticks, sizeof ticks, "%llu", s->pid_start);
    json_object_set_new(root, "pid_start", json_string(ticks));
    hb_status status = hb_json_write_file(path, root);
    json_decref(root);
    return status;
}

static void copy_text(char *out, size_t size, const json_t *root, const char *key)
{
    const char *text = json_string_value(json_object_get(root, key));
    snprintf(out, size, "%s", text ? text : "");
}

hb_status hb_repro_state_read(const char *path, hb_repro_state *s)
{
    memset(s, 0, sizeof *s);
    char *text = NULL;
    size_t size = 0;
    HB_TRY(hb_input_read(path, "reproduce's state file", STATE_MAX_BYTES, HB_ERR_BAD_RESULTS, 0, &text, &size));
    json_error_t error;
    json_t *root = json_loadb(text, size, 0, &error);
    free(text);
    const char *format = json_string_value(json_object_get(root, "format"));
    const char *ticks = json_string_value(json_object_get(root, "pid_start"));
    if (!root || !format || strcmp(format, HB_REPRO_STATE_FORMAT) || !ticks ||
        !json_is_integer(json_object_get(root, "pid")) || !json_is_string(json_object_get(root, "stage"))) {
        json_decref(root);
        return hb_fail(HB_ERR_BAD_RESULTS, "%s is not a reproduction's state file (%s)", path,
                       root ? "its fields are not reproduce's" : error.text);
    }
    s->pid = (long)json_integer_value(json_object_get(root, "pid"));
    s->pid_start = strtoull(ticks, NULL, 10);
    s->started_s = json_number_value(json_object_get(root, "started_s"));
    copy_text(s->stage, sizeof s->stage, root, "stage");
    copy_text(s->form, sizeof s->form, root, "form");
    s->stage_index = (int)json_integer_value(json_object_get(root, "stage_index"));
    s->stage_count = (int)json_integer_value(json_object_get(root, "stage_count"));
    s->stage_started_s = json_number_value(json_object_get(root, "stage_started_s"));
    s->total = json_is_integer(json_object_get(root, "total")) ? json_integer_value(json_object_get(root, "total")) : -1;
    s->done_at_start = json_integer_value(json_object_get(root, "done_at_start"));
    copy_text(s->journal, sizeof s->journal, root, "journal");
    copy_text(s->log, sizeof s->log, root, "log");
    s->ended = json_is_true(json_object_get(root, "ended"));
    s->exit_code = (int)json_integer_value(json_object_get(root, "exit_code"));
    json_decref(root);
    return HB_OK;
}

long long hb_repro_journal_done(const char *journal)
{
    FILE *f = fopen(journal, "r");
    if (!f)
        return 0;
    long long lines = 0;
    int c;
    while ((c = getc(f)) != EOF) /* a line cut short (an item in flight at a kill) is not done */
        lines += c == '\n';
    fclose(f);
    return lines;
}

/* --- the pid file ---------------------------------------------------------------------- */

hb_status hb_repro_pid_write(const char *out_dir, const char *suffix, pid_t pid, unsigned long long start)
{
    char path[4400], text[64];
    snprintf(path, sizeof path, "%.4000s/reproduce%s.pid", out_dir, suffix);
    int length = snprintf(text, sizeof text, "%ld %llu\n", (long)pid, start);
    return hb_out_file_write(path, text, (size_t)length);
}

static int pid_file_names(const char *path, long *pid, unsigned long long *start)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int read = fscanf(f, "%ld %llu", pid, start) == 2;
    fclose(f);
    return read;
}

pid_t hb_repro_running(const char *out_dir, const char *suffix)
{
    char path[4400];
    long pid;
    unsigned long long start;
    snprintf(path, sizeof path, "%.4000s/reproduce%s.pid", out_dir, suffix);
    if (pid_file_names(path, &pid, &start) && hb_process_is_same((pid_t)pid, start))
        return (pid_t)pid;
    snprintf(path, sizeof path, "%.4000s/reproduce-state%s.json", out_dir, suffix);
    hb_repro_state s;
    hb_diag_set_quiet(1);
    hb_status read = hb_repro_state_read(path, &s);
    hb_diag_set_quiet(0);
    if (read == HB_OK && !s.ended && hb_process_is_same((pid_t)s.pid, s.pid_start))
        return (pid_t)s.pid;
    return 0;
}

/* --- --status ---------------------------------------------------------------------------- */

static void say_duration(char *out, size_t size, double seconds)
{
    if (seconds < 90)
        snprintf(out, size, "%.0f s", seconds);
    else if (seconds < 90 * 60)
        snprintf(out, size, "%.0f min", seconds / 60);
    else
        snprintf(out, size, "%.1f h", seconds / 3600);
}

/* The log's last LOG_TAIL_BYTES, NUL-terminated; NULL when there is no log. */
static char *log_tail(const char *path)
{
    FILE *f = path[0] ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    long from = size > (long)LOG_TAIL_BYTES ? size - (long)LOG_TAIL_BYTES : 0;
    char *text = size >= 0 ? malloc((size_t)(size - from) + 1) : NULL;
    if (!text || fseek(f, from, SEEK_SET) != 0) {
        free(text);
        fclose(f);
        return NULL;
    }
    size_t n = fread(text, 1, (size_t)(size - from), f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The last line of `text` (lines end at '\n' or at '\r', a progress line
 * rewritten in place) holding `needle`, into out; 0 when none does. */
static int last_line_with(const char *text, const char *needle, char *out, size_t size)
{
    int found = 0;
    for (const char *line = text; *line;) {
        size_t length = strcspn(line, "\r\n");
        const char *hit = strstr(line, needle);
        if (hit && hit < line + length) {
            snprintf(out, size, "%.*s", (int)(length < 400 ? length : 400), line);
            found = 1;
        }
        line += length;
        line += strspn(line, "\r\n");
    }
    return found;
}

/* The stage's items done: the journal's lines for a sweep, the import's
 * last progress line in the log ("import: 12 of 200 built, ..."); -1 when
 * neither says. */
static long long items_done(const hb_repro_state *s, const char *log)
{
    if (s->journal[0])
        return hb_repro_journal_done(s->journal);
    char line[512];
    unsigned long long done, total;
    if (!strcmp(s->stage, "import") && log && last_line_with(log, "import: ", line, sizeof line) &&
        sscanf(strstr(line, "import: "), "import: %llu of %llu built", &done, &total) == 2)
        return (long long)done;
    return -1;
}

static void say_items(const hb_repro_state *s, long long done, double now, FILE *to)
{
    if (s->total < 0 || done < 0) {
        fprintf(to, "  items: %s\n", s->total < 0 ? "none counted (the stage reads files: seconds)"
                                                  : "not known yet (no progress line in the log)");
        return;
    }
    fprintf(to, "  items: %lld of %lld done", done, s->total);
    if (s->done_at_start > 0)
        fprintf(to, " (%lld before this stage began: resumed)", s->done_at_start);
    double stage_s = now - s->stage_started_s;
    long long now_done = done - s->done_at_start;
    char left[32];
    if (done >= s->total)
        fprintf(to, "\n");
    else if (now_done > 0 && stage_s > 0) {
        say_duration(left, sizeof left, (double)(s->total - done) * stage_s / (double)now_done);
        fprintf(to, "; about %s left at this stage's rate so far\n", left);
    } else
        fprintf(to, "; time left known after the stage's first item\n");
}

static void say_one(const char *path, const char *out_dir, FILE *to)
{
    hb_repro_state s;
    if (hb_repro_state_read(path, &s) != HB_OK) {
        fprintf(to, "%s: %s\n", path, hb_last_error());
        return;
    }
    double now = now_epoch_s();
    int running = !s.ended && hb_process_is_same((pid_t)s.pid, s.pid_start);
    char form[40] = "", all[32], stage[32], log_path[4400];
    if (s.form[0])
        snprintf(form, sizeof form, " (%s form)", s.form);
    say_duration(all, sizeof all, now - s.started_s);
    say_duration(stage, sizeof stage, now - s.stage_started_s);
    if (s.ended)
        fprintf(to, "%s: finished, exit %d%s\n", out_dir, s.exit_code,
                s.exit_code ? ": the last error below; fix it and run the same command again: what finished is kept"
                            : "");
    else if (running)
        fprintf(to, "%s: running (pid %ld), stage %d of %d: %s%s, for %s; %s since the reproduction started\n",
                out_dir, s.pid, s.stage_index, s.stage_count, s.stage, form, stage, all);
    else
        fprintf(to, "%s: not running (pid %ld has ended without finishing), stopped in stage %d of %d: %s%s; the "
                "same command resumes it\n", out_dir, s.pid, s.stage_index, s.stage_count, s.stage, form);
    char *log = NULL;
    if (s.log[0])
        snprintf(log_path, sizeof log_path, "%s", s.log);
    else
        snprintf(log_path, sizeof log_path, "%.4000s/reproduce.log", out_dir);
    log = log_tail(log_path);
    if (!s.ended)
        say_items(&s, items_done(&s, log), now, to);
    char error[512];
    if (log) {
        fprintf(to, "  log: %s\n", log_path);
        fprintf(to, "  last error: %s\n", last_line_with(log, "error: ", error, sizeof error) ? error : "none");
    } else {
        fprintf(to, "  log: none in the folder (a run in a terminal writes its messages there)\n");
    }
    free(log);
}

hb_status hb_repro_status_print(const char *out_dir, FILE *to)
{
    char pattern[4400];
    snprintf(pattern, sizeof pattern, "%.4000s/reproduce-state*.json", out_dir);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        pid_t starting = hb_repro_running(out_dir, "");
        if (starting) { /* --detach wrote the pid; the reproduction has not written its first state yet */
            fprintf(to, "%s: running (pid %ld), starting: no stage begun yet\n", out_dir, (long)starting);
            return HB_OK;
        }
        return hb_fail(HB_ERR_BAD_RESULTS, "reproduce --status %s: no reproduce-state.json there: not a "
                       "reproduction's folder (--out of `hgemm-bench reproduce`), or one from a harness before "
                       "state files (its sweep's journal and report say what it did)", out_dir);
    }
    for (size_t i = 0; i < g.gl_pathc; i++)
        say_one(g.gl_pathv[i], out_dir, to);
    globfree(&g);
    return HB_OK;
}
