#define _POSIX_C_SOURCE 200809L
#include "bench/report/json_lines.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/report/verdict_file.h"
#include "bench/result/gate.h"

static FILE *lines; /* the original stdout; NULL until opened, and in children */

hb_status hb_json_lines_open(void)
{
    if (lines)
        return HB_OK;
    if (fflush(stdout) != 0)
        return hb_fail(HB_ERR_IO, "--json: flushing stdout failed: %s", strerror(errno));
    int copy = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (copy < 0)
        return hb_fail(HB_ERR_IO, "--json: cannot duplicate stdout: %s", strerror(errno));
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        int err = errno;
        close(copy);
        return hb_fail(HB_ERR_IO, "--json: cannot point stdout at stderr: %s", strerror(err));
    }
    lines = fdopen(copy, "w");
    if (!lines) {
        int err = errno;
        close(copy);
        return hb_fail(HB_ERR_IO, "--json: fdopen of the copy of stdout failed: %s", strerror(err));
    }
    return HB_OK;
}

void hb_json_lines_forget_in_child(void)
{
    if (!lines)
        return;
    close(fileno(lines)); /* not fclose: that would flush the parent's buffered bytes a second time */
    lines = NULL;
}

/* The verdict item with the line format and the run first: a reader that
 * gets lines from several runs can tell them apart. */
static json_t *line_object(const hb_run_record *run, const hb_config_result *r)
{
    const hb_run_options *o = run->options;
    const unsigned forbidden = o->gate ? hb_gate_forbidden_findings(o->strict, o->forbid) : 0;
    json_t *line = json_object();
    json_object_set_new(line, "format", json_string(HB_JSON_LINES_FORMAT));
    json_object_set_new(line, "command", json_string(run->command));
    json_object_set_new(line, "run_id", json_string(run->run_id));
    json_object_update_missing_new(line, hb_verdict_config_json(r, o->vs, forbidden));
    return line;
}

static hb_status lines_config(hb_sink *self, const hb_run_record *run, const hb_config_result *result)
{
    (void)self;
    if (!lines)
        return hb_fail(HB_ERR_INTERNAL, "--json: the line sink was used before hb_json_lines_open");
    json_t *line = line_object(run, result);
    int failed = !line || json_dumpf(line, lines, JSON_COMPACT | JSON_ENSURE_ASCII) != 0;
    json_decref(line);
    if (failed || fputc('\n', lines) == EOF || fflush(lines) != 0)
        return hb_fail(HB_ERR_IO, "--json: writing a configuration's line to stdout failed: %s", strerror(errno));
    return HB_OK;
}

static const hb_sink_ops lines_ops = {.name = "--json lines", .config = lines_config};

hb_sink hb_json_lines_sink(void)
{
    hb_sink sink = {&lines_ops, NULL};
    return sink;
}
