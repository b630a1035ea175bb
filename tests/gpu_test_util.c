#define _POSIX_C_SOURCE 200809L
#include "tests/gpu_test_util.h"

#include "bench/analysis/csv_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/analysis/csv_reader.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static hb_device_info device;
static int device_state; /* 0 untried, 1 usable, -1 none */
static cudaStream_t stream;

int hb_test_gpu_ready(void)
{
    if (device_state == 0) {
        int count = 0;
        device_state = (cudaGetDeviceCount(&count) == cudaSuccess && count > 0 && hb_device_open(0, &device) == HB_OK &&
                        cudaStreamCreate(&stream) == cudaSuccess)
                           ? 1
                           : -1;
    }
    return device_state == 1;
}

const hb_device_info *hb_test_device(void) { return &device; }

cudaStream_t hb_test_stream(void) { return stream; }

const char *hb_test_build_dir(void)
{
    const char *dir = getenv("HB_BUILD");
    return dir ? dir : "build";
}

int hb_test_run_bench(const char *command, const char *args, const char *out_dir)
{
    const char *bench = getenv("HB_BENCH");
    char line[4096];
    hb_test_make_folder(out_dir); /* the shell redirects into it before the command runs */
    snprintf(line, sizeof line, "%s %s %s --out %s --no-progress --seed 7 >%s/stdout.txt 2>%s/stderr.txt",
             bench ? bench : "build/hgemm-bench", command, args, out_dir, out_dir, out_dir);
    int rc = system(line);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

int hb_test_count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int lines = 0, c;
    while ((c = fgetc(f)) != EOF)
        lines += c == '\n';
    fclose(f);
    return lines;
}

void hb_test_find_run_dir(const char *out, char *run_dir, size_t size)
{
    char command[1200];
    snprintf(command, sizeof command, "ls -dt %s/2*/ 2>/dev/null", out);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    assert_non_null(fgets(run_dir, (int)size, p));
    pclose(p);
    run_dir[strcspn(run_dir, "\n")] = '\0';
}

typedef struct field_search {
    const char *participant;
    long m;
    char *out;
    size_t size;
    int found;
} field_search;

static hb_status match_row(void *context, const hb_csv_row *row)
{
    field_search *f = context;
    if (!f->found && !strcmp(row->text[0], f->participant) && strtol(row->text[1], NULL, 10) == f->m) {
        snprintf(f->out, f->size, "%s", row->text[2]);
        f->found = 1;
    }
    return HB_OK;
}

/* Through the harness's own CSV reader (RFC 4180: a reason or a conduct
 * cell may hold quoted commas). */
int hb_test_csv_field(const char *csv, const char *participant, long m, const char *column, char *out, size_t size)
{
    const char *wanted[] = {"participant", "m", column};
    field_search f = {participant, m, out, size, 0};
    hb_csv_spec spec = {.what = "summary.csv", .wanted = wanted, .n_wanted = 3, .row = match_row, .context = &f};
    out[0] = '\0';
    return hb_csv_read(csv, &spec) == HB_OK && f.found;
}

void hb_test_csv_text(const char *csv, const char *participant, long m, const char *column, char *out, size_t size)
{
    if (!hb_test_csv_field(csv, participant, m, column, out, size))
        fail_msg("summary.csv has no %s for %s at M=%ld", column, participant, m);
}

double hb_test_csv_number(const char *csv, const char *participant, long m, const char *column)
{
    char text[128];
    hb_test_csv_text(csv, participant, m, column, text, sizeof text);
    char *end = NULL;
    double value = strtod(text, &end);
    if (end == text)
        fail_msg("%s of %s at M=%ld is '%s', not a number", column, participant, m, text);
    return value;
}

void hb_test_summary_path(const char *out, char *path, size_t size)
{
    char run_dir[1024];
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(path, size, "%s/summary.csv", run_dir);
}
