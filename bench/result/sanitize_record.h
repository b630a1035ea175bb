/* What `--sanitize` ran on a configuration and what each tool found
 * (docs/validation.md, "Sanitizers"): compute-sanitizer's memcheck,
 * racecheck and synccheck, each a separate pass of the configuration's
 * checks.  Plain data and the tool list's text: no CUDA. */
#ifndef HB_SANITIZE_RECORD_H
#define HB_SANITIZE_RECORD_H

#include <stddef.h>

typedef enum hb_sanitizer_tool {
    HB_SANITIZE_MEMCHECK,  /* out-of-bounds and misaligned accesses, leaks: any error fails the configuration */
    HB_SANITIZE_RACECHECK, /* shared-memory data races (hazards): any hazard fails it */
    HB_SANITIZE_SYNCCHECK, /* barriers misused (divergent __syncthreads, bad masks): any error fails it */
    HB_N_SANITIZER_TOOLS
} hb_sanitizer_tool;

#define HB_SANITIZE_BIT(t) (1u << (unsigned)(t))

/* "memcheck", "racecheck", "synccheck": compute-sanitizer's own --tool names. */
const char *hb_sanitizer_tool_name(hb_sanitizer_tool tool);

/* A comma-separated list of tool names as a mask; 0, with `bad` the first
 * unknown name, on error.  An empty list is an error too. */
unsigned hb_sanitizer_parse_list(const char *list, char *bad, size_t bad_size);

/* The mask's names, "memcheck,racecheck", in the tools' order. */
void hb_sanitizer_list(unsigned mask, char *out, size_t size);

typedef struct hb_sanitize_record {
    unsigned ran;                        /* HB_SANITIZE_BIT of each tool that ran to its end */
    unsigned failed;                     /* ... and of each that reported errors */
    long errors[HB_N_SANITIZER_TOOLS];   /* errors (racecheck: hazards) each tool counted in the candidate's kernels */
    long library_errors[HB_N_SANITIZER_TOOLS]; /* ... and in the library's (the baselines'; not held against it) */
} hb_sanitize_record;

/* The errors a compute-sanitizer summary line counts, or -1 when `line` is
 * none: "========= ERROR SUMMARY: 3 errors" (memcheck, synccheck) gives 3,
 * "========= RACECHECK SUMMARY: 18 hazards displayed (18 errors, 0 warnings)"
 * gives 18 (racecheck's warnings are hazards it cannot call races: not
 * counted). */
long hb_sanitizer_summary_errors(const char *line);

/* What one tool's log says, read line by line (hb_sanitizer_log_line): the
 * errors its summary line counts, and how many of its error reports are in
 * a kernel of cuBLAS or cuBLASLt (bench/result/library_kernel.h: by name).
 * The baselines run in the same process as the candidate, and racecheck
 * reports hazards in cuBLAS's Hopper kernels (nvjet_*, whose shared memory
 * is written by the TMA engine, which racecheck does not follow): those are
 * not the candidate's. */
typedef struct hb_sanitizer_log {
    long summary_errors;     /* from the summary line; -1 until one is read */
    long reports;            /* error reports read */
    long library_reports;    /* ... whose kernel is the library's */
    int in_report;           /* 1: inside a report whose kernel is not named yet */
    char first[400];         /* the first report's line not in a library kernel, "" when none */
    char pending[400];       /* the open report's line */
} hb_sanitizer_log;

void hb_sanitizer_log_init(hb_sanitizer_log *log);
void hb_sanitizer_log_line(hb_sanitizer_log *log, const char *line);
/* The errors that are the candidate's: the summary's count less the library's
 * reports (0 at least); -1 when the log had no summary line. */
long hb_sanitizer_log_candidate_errors(const hb_sanitizer_log *log);

/* The `sanitize` cell: "tool=errors" for each tool that ran, ";"-joined, in
 * the tools' order ("memcheck=0;racecheck=18"); "" when none ran. */
void hb_sanitize_cell(const hb_sanitize_record *record, char *out, size_t size);

#endif
