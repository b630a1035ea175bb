/* Launch dimensions and byte counts that depend on the problem size, as a
 * manifest writes them: a product of terms, each an integer, a dimension
 * (M, N or K), or a dimension divided by a tile size and rounded up.
 * Examples: 1, "N/128", "M/128*N/256", "M*N*4".  The dimensions are the
 * padded ones the kernel sees. */
#ifndef HB_DIM_EXPR_H
#define HB_DIM_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/status.h"

#define HB_DIM_EXPR_MAX_TERMS 8

typedef struct hb_dim_term {
    char dim;         /* 'M', 'N', 'K', or 0 for a literal */
    uint64_t value;   /* the literal, or the divisor of dim (1 = no division) */
} hb_dim_term;

typedef struct hb_dim_expr {
    int n_terms;
    hb_dim_term terms[HB_DIM_EXPR_MAX_TERMS];
} hb_dim_expr;

/* Parses `text`; on error writes a reason into `why` and returns HB_ERR_BAD_INPUT. */
hb_status hb_dim_expr_parse(const char *text, hb_dim_expr *out, char *why, size_t why_size);
void hb_dim_expr_literal(uint64_t value, hb_dim_expr *out);
/* Evaluates with ceil-division; fails (HB_ERR_UNSUPPORTED) if the value
 * exceeds `limit`. */
hb_status hb_dim_expr_eval(const hb_dim_expr *expr, long m, long n, long k, uint64_t limit,
                           uint64_t *out);

#endif
