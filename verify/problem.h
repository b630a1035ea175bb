/* The device buffers of one configuration: shared inputs, one output per
 * participant, and the two references of the deviation check (fp32 for the
 * paper's rule, fp64 for the verdict). */
#ifndef HB_PROBLEM_H
#define HB_PROBLEM_H

#include "bench/candidate/participant.h"
#include "bench/core/gemm_types.h"
#include "verify/reference_f64.h"

typedef enum hb_input_kind {
    HB_INPUTS_NORMAL, /* N(0, 1): deviation check and timing */
    HB_INPUTS_BINARY, /* {0, 1}: exact-match check */
    HB_INPUTS_SIGNED  /* {-1, 0, 1}: exact-match check, signed variant */
} hb_input_kind;

typedef struct hb_problem {
    hb_gemm_io inputs;                  /* a, b, b_col; c unused */
    uint16_t *outputs[HB_MAX_PARTICIPANTS];
    hb_gemm_io ios[HB_MAX_PARTICIPANTS]; /* inputs plus participant i's output */
    float *reference;                    /* fp32 reference (the paper's rule) */
    hb_reference64 ref64;                /* fp64 reference (the verdict) */
    size_t count;
    uint64_t seed;             /* seed of the last fill */
    hb_input_kind kind;        /* of the last fill: with the seed, what A, B and B_col must still hold */
    uint64_t stir_seed;        /* of the stir since the last fill (hb_problem_stir); 0: none */
} hb_problem;


/* Allocates and fills A, B (and B_col, the same matrix) with N(0,1) fp16
 * drawn from `seed`, plus `count` outputs and the reference scratch. */
hb_status hb_problem_create(const hb_mnk *mnk, size_t count, uint64_t seed, cudaStream_t stream, hb_problem *out);
void hb_problem_free(hb_problem *problem);

/* Refills A, B and B_col in place (same buffers) with fresh values; no stir. */
hb_status hb_problem_fill(hb_problem *problem, hb_input_kind kind, uint64_t seed, cudaStream_t stream);

/* Stirs the N(0, 1) inputs (docs/methodology.md, "L2 policy"): one element
 * in every row of A and one in every column of B (the same in B_col) get a
 * fresh N(0, 1) value drawn from `stir_seed` (nonzero), after the elements
 * the previous stir changed are set back to the fill's values: the inputs
 * are always the last fill plus the latest stir, and every element of the
 * product changes.  A few thousand scattered element writes: inputs that
 * sit in L2 stay there.  Synchronous.  HB_ERR_INTERNAL on a fill other than
 * N(0, 1) or a zero seed. */
hb_status hb_problem_stir(hb_problem *problem, uint64_t stir_seed, cudaStream_t stream);

/* Whether A, B and B_col still hold what the last fill and stir wrote;
 * *changed names the first that does not ("A", "B", "B_col"), NULL when
 * intact. */
hb_status hb_problem_inputs_intact(hb_problem *problem, cudaStream_t stream, const char **changed);

/* Probability that an element of the {0, 1} inputs is 1, for this K. */
double hb_exact_input_density(long k);

#endif
