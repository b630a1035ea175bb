#include "bench/candidate/dim_expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

void hb_dim_expr_literal(uint64_t value, hb_dim_expr *out)
{
    memset(out, 0, sizeof *out);
    out->n_terms = 1;
    out->terms[0].dim = 0;
    out->terms[0].value = value;
}

static int parse_positive(const char **cursor, uint64_t *out)
{
    if (!isdigit((unsigned char)**cursor))
        return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(*cursor, &end, 10);
    if (errno != 0 || value == 0)
        return 0;
    *cursor = end;
    *out = (uint64_t)value;
    return 1;
}

static int parse_term(const char **cursor, hb_dim_term *term)
{
    char c = (char)toupper((unsigned char)**cursor);
    if (c == 'M' || c == 'N' || c == 'K') {
        term->dim = c;
        term->value = 1;
        (*cursor)++;
        if (**cursor == '/') {
            (*cursor)++;
            return parse_positive(cursor, &term->value);
        }
        return 1;
    }
    term->dim = 0;
    return parse_positive(cursor, &term->value);
}

hb_status hb_dim_expr_parse(const char *text, hb_dim_expr *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    const char *cursor = text;
    for (;;) {
        while (*cursor == ' ')
            cursor++;
        if (out->n_terms == HB_DIM_EXPR_MAX_TERMS) {
            snprintf(why, why_size, "'%s' has more than %d factors", text, HB_DIM_EXPR_MAX_TERMS);
            return HB_ERR_BAD_INPUT;
        }
        if (!parse_term(&cursor, &out->terms[out->n_terms])) {
            snprintf(why, why_size,
                     "'%s' is not a product of terms like 4, M, N/128 (positive integers, "
                     "dimensions M N K, ceil-division by a positive integer)",
                     text);
            return HB_ERR_BAD_INPUT;
        }
        out->n_terms++;
        while (*cursor == ' ')
            cursor++;
        if (*cursor == '\0')
            return HB_OK;
        if (*cursor != '*') {
            snprintf(why, why_size, "unexpected '%c' in '%s'", *cursor, text);
            return HB_ERR_BAD_INPUT;
        }
        cursor++;
    }
}

hb_status hb_dim_expr_eval(const hb_dim_expr *expr, long m, long n, long k, uint64_t limit,
                           uint64_t *out)
{
    uint64_t product = 1;
    for (int i = 0; i < expr->n_terms; i++) {
        const hb_dim_term *term = &expr->terms[i];
        uint64_t factor = term->value;
        if (term->dim) {
            uint64_t dim = (uint64_t)(term->dim == 'M' ? m : term->dim == 'N' ? n : k);
            factor = dim / term->value + (dim % term->value != 0); /* ceil, without overflow */
        }
        if (factor != 0 && product > limit / factor)
            return hb_fail(HB_ERR_UNSUPPORTED, "a launch dimension or size exceeds %llu at M=%ld N=%ld K=%ld",
                           (unsigned long long)limit, m, n, k);
        product *= factor;
    }
    if (product > limit)
        return hb_fail(HB_ERR_UNSUPPORTED, "a launch dimension or size exceeds %llu at M=%ld N=%ld K=%ld",
                       (unsigned long long)limit, m, n, k);
    *out = product;
    return HB_OK;
}
