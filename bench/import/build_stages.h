/* Where one build's time went: nvcc's phases of the kernel's compile, from
 * the table `nvcc --time FILE` appends (a CSV row per phase: source, phase
 * name, inputs, output, arch, tool, metric, unit), summed into the stages
 * that tell what dominates a build, and the import's own steps after it
 * (link, record).  Plain data and its parsing: no process is run here. */
#ifndef HB_BUILD_STAGES_H
#define HB_BUILD_STAGES_H

#include <stddef.h>

typedef enum hb_build_stage {
    HB_STAGE_FRONT_END, /* gcc's preprocessing and cudafe++: the C++ front end of the device and host code */
    HB_STAGE_CICC,      /* cicc: the device code's C++ into PTX (NVVM's optimizer) */
    HB_STAGE_PTXAS,     /* ptxas: PTX into SASS */
    HB_STAGE_HOST,      /* gcc (compiling): the host code's object */
    HB_STAGE_OTHER,     /* fatbinary, the driver, nvlink: what no stage above names */
    HB_STAGE_LINK,      /* the launcher library's link (a second nvcc) */
    HB_STAGE_RECORD,    /* the launch recorder's run */
    HB_STAGE_COUNT
} hb_build_stage;

typedef struct hb_build_stages {
    double seconds[HB_STAGE_COUNT]; /* wall seconds of each stage; 0 for a stage that did not run */
    int known;                      /* 1: nvcc's table was read (a build of an older cache entry has none) */
} hb_build_stages;

/* "front_end", "cicc", "ptxas", "host", "other", "link", "record": the
 * names outcome.json, the build history and import.csv use. */
const char *hb_build_stage_name(hb_build_stage stage);

/* The stage an nvcc phase name belongs to ("gcc (preprocessing 4)",
 * "cudafe++", "cicc", "ptxas", "gcc (compiling)", ...). */
hb_build_stage hb_build_stage_of_phase(const char *phase);

/* Adds the phases of nvcc's --time table `text` (`length` bytes; the
 * header row and any row whose metric is not a time in ms are passed
 * over) to `out`, and sets out->known when at least one phase was read.
 * 0 when the text is not CSV at all. */
int hb_build_stages_parse(const char *text, size_t length, hb_build_stages *out);

/* The stage that took the longest; HB_STAGE_COUNT when none took any time. */
hb_build_stage hb_build_stages_dominant(const hb_build_stages *stages);

#endif
