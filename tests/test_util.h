/* Helpers shared by the test files: temporary folders. */
#ifndef HB_TEST_UTIL_H
#define HB_TEST_UTIL_H

#include <jansson.h>

#include <stddef.h>
#include <stdio.h>

/* Creates a fresh folder $TMPDIR/<prefix>-<random> (or under /tmp) and writes its path; fails the test otherwise. */
void hb_test_make_temp_dir(const char *prefix, char *dir, size_t size);
/* Makes `path` and its parents if need be (a command's output folder, before
 * the shell redirects into it); fails the test naming it when it cannot. */
void hb_test_make_folder(const char *path);
/* Removes a folder and everything under it. */
void hb_test_remove_tree(const char *path);
/* How many entries `dir` holds (not counting . and ..); hidden ones included. */
size_t hb_test_count_entries(const char *dir);

/* A whole file as a NUL-terminated string (free it), NULL if it cannot be read. */
char *hb_test_read_file(const char *path);
/* 1 if the file can be read and holds `needle`. */
int hb_test_file_contains(const char *path, const char *needle);

/* Output captured in memory: open a stream, write to it, close it to get the
 * text (free it).  Failing to open or close fails the test. */
typedef struct hb_test_capture {
    char *text;
    size_t size;
    FILE *stream;
} hb_test_capture;
FILE *hb_test_capture_open(hb_test_capture *capture);
char *hb_test_capture_close(hb_test_capture *capture);

/* The JSON document at `path`; fails the test, naming the file, when it does not parse. */
json_t *hb_test_load_json(const char *path);

/* $HB_BENCH, else build/hgemm-bench: the driver binary under test. */
const char *hb_test_bench(void);
/* $HB_REPORT, else build/hgemm-report: the CUDA-free binary under test. */
const char *hb_test_report(void);
/* Runs `binary` with `words` (NULL-terminated, without argv[0]; at most 62), its
 * stdout into `out` and its stderr into `err` (NULL: /dev/null, or this
 * process's stderr with HB_TEST_VERBOSE set); fails the test unless it exits;
 * its exit status. */
int hb_test_run(const char *binary, const char *const *words, const char *out, const char *err);

/* In a report's or compare's JSON document (docs/reports.md): the table named
 * `name`, the index of its column `name`, and a row's cell of a column; each
 * fails the test, naming what is missing, when it is not there. */
const json_t *hb_test_json_table(const json_t *doc, const char *name);
size_t hb_test_json_column(const json_t *table, const char *name);
const json_t *hb_test_json_cell(const json_t *table, size_t row, const char *column);
/* Runs a shell command line; its exit code, -1 if it did not exit. */
int hb_test_shell(const char *command);
/* 1 if gnuplot is on PATH: the figure tests need it (the GPU machines may lack it). */
int hb_test_have_gnuplot(void);
/* Skips the calling cmocka test, saying why, where gnuplot is not on PATH. */
#define HB_TEST_SKIP_WITHOUT_GNUPLOT()                                                                                 \
    do {                                                                                                               \
        if (!hb_test_have_gnuplot()) {                                                                                 \
            print_message("skipped: gnuplot is not installed (scripts/install_deps.sh installs it)\n");               \
            skip();                                                                                                    \
            return;                                                                                                    \
        }                                                                                                              \
    } while (0)

#endif
