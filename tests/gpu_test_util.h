/* Helpers shared by the GPU test files: whether a GPU is usable (tests that
 * need one skip, and are counted, when not), where the build is, and running
 * the driver binary and reading its results folder. */
#ifndef HB_GPU_TEST_UTIL_H
#define HB_GPU_TEST_UTIL_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/gpu/device.h"

/* Opens device 0 once; 1 if it is usable. */
int hb_test_gpu_ready(void);
const hb_device_info *hb_test_device(void);
cudaStream_t hb_test_stream(void);

#define REQUIRE_GPU()                  \
    do {                               \
        if (!hb_test_gpu_ready()) {    \
            hb_test_skip_no_gpu();     \
            return;                    \
        }                              \
    } while (0)

/* $HB_BUILD, else "build". */
const char *hb_test_build_dir(void);

/* Runs `hgemm-bench COMMAND ARGS --out OUT --no-progress --seed 7`, stdout and
 * stderr to OUT/stdout.txt and OUT/stderr.txt; returns its exit code. */
int hb_test_run_bench(const char *command, const char *args, const char *out_dir);

/* Lines in a file, -1 if it cannot be read. */
int hb_test_count_lines(const char *path);

/* The newest run folder inside `out` (fails the test if there is none). */
void hb_test_find_run_dir(const char *out, char *run_dir, size_t size);

/* The field of summary.csv `csv` in the column named `column`, in the row of
 * `participant` with M = m.  Returns 1 if found.  (Rows read here have no
 * quoted commas: baselines and passing candidates have empty reasons.) */
int hb_test_csv_field(const char *csv, const char *participant, long m, const char *column, char *out,
                      size_t size);

/* The same, failing the test when the field is missing; and as a number. */
void hb_test_csv_text(const char *csv, const char *participant, long m, const char *column, char *out, size_t size);
double hb_test_csv_number(const char *csv, const char *participant, long m, const char *column);

/* summary.csv of the newest run folder inside `out`. */
void hb_test_summary_path(const char *out, char *path, size_t size);

#endif
