/* A launcher's calls as the launch recorder saw them (build/import/
 * hgemm-l2-record, bench/import/record_main.c: the file's own host code run
 * on the CPU against a recording stand-in of the CUDA runtime), and what
 * follows from them: how many kernels one call launches, and whether the
 * file also has a cubin form, i.e. one <<<>>> launch of a kernel whose
 * parameters are all buffers or sizes, with nothing else done on the device.
 * The cubin form's grid, block, shared memory, entry and parameter order are
 * the recorded launch's, never read from the source's templates. */
#ifndef HB_LAUNCH_RECORDING_H
#define HB_LAUNCH_RECORDING_H

#include <stddef.h>

#include "bench/core/status.h"

#define HB_CUBIN_MAX_PARAMS 16

/* The device the stand-in describes when host code asks (persistent kernels
 * size their grid by the SM count): the GPU the import runs on, or a table's
 * GPU for the target architecture. */
typedef struct hb_recorder_device {
    int sm;
    int sms;
    size_t smem_per_block_optin, smem_per_sm, l2_bytes; /* bytes */
    char described[96];                                 /* "NVIDIA H100 80GB HBM3 (this GPU)", "A100 (table)" */
} hb_recorder_device;

/* The table's GPU for an architecture (A100 for sm_80, RTX 3090 for sm_86,
 * H100 SXM for sm_90); 0 when the table has none. */
int hb_recorder_device_for_arch(int sm, hb_recorder_device *out);

typedef struct hb_cubin_form {
    int possible;
    char reason[256];                       /* why not, when not */
    char kernel[8192];                      /* the mangled name: the cubin's entry */
    unsigned grid[3], block[3];
    size_t smem;                            /* dynamic shared memory, bytes */
    char params[HB_CUBIN_MAX_PARAMS][24];   /* role names ("a", "b_col", "m") or decimal constants */
    size_t n_params;
    char b_layout[4];                       /* "row" when the kernel gets only B, "col" when it gets B_col */
    /* Per parameter: the sizes (1 m, 2 n, 4 k) its value equals when it
     * equals more than one (M = N here, say): its role is not told by the
     * value alone.  Named in declared order until a second recording at
     * distinct sizes names it (hb_launch_roles_from_second). */
    unsigned ambiguous[HB_CUBIN_MAX_PARAMS];
    long sizes[3];                          /* the recording's M, N, K (padded) */
    char notes[1024];                       /* what the cubin form does not repeat: "; "-separated */
} hb_cubin_form;

typedef struct hb_launch_summary {
    int returned;              /* the entry's return in the last recorded call */
    char error[256];           /* its message */
    long launches_first;       /* kernels the first call launched */
    long launches_per_call;    /* kernels each later call launched */
    char apis[96];             /* the launch APIs seen: "<<<>>>", "cudaLaunchKernelEx", ... */
    char device_work[256];     /* other device work in a later call: "cudaMemsetAsync x1" */
    char first_call_extra[256];/* what only the first call did: "cudaMalloc x1" */
    long device_queries;
} hb_launch_summary;

/* Runs the recorder on `library` at sizes m, n, k (padded) for two calls;
 * its JSON goes to `json_path`.  HB_ERR_CANDIDATE_FAULT with the reason
 * (a crash, a timeout of `timeout_s`, a load failure) when no recording came. */
hb_status hb_launch_record(const char *recorder, const char *library, const long mnk[3],
                           const hb_recorder_device *device, int timeout_s, const char *json_path,
                           const char *log_path);

/* Reads a recording; HB_ERR_BAD_INPUT naming the file when it is not one. */
hb_status hb_launch_recording_read(const char *json_path, hb_launch_summary *summary, hb_cubin_form *form);

/* 1 when some size parameter's role is ambiguous (see hb_cubin_form.ambiguous). */
int hb_cubin_form_ambiguous(const hb_cubin_form *form);

/* Sizes for a second recording that tell M, N and K apart: multiples of the
 * padded sizes (so every tile still divides them), all three different. */
void hb_distinct_sizes(const long padded[3], long out[3]);

/* Names the ambiguous size parameters from a second recording, made at
 * hb_distinct_sizes: each takes the role its value has there, when the same
 * kernel was launched with as many parameters and every value names one
 * size that the first recording allowed.  Otherwise (or with `json_path`
 * NULL, `why_not` saying why) the declared-order names stay, with a note
 * saying the role is ambiguous and why the launch is the same at this
 * configuration.  A note says which way it went. */
void hb_launch_roles_from_second(const char *json_path, const char *why_not, hb_cubin_form *form);

#endif
