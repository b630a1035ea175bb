#include "bench/analysis/mma_census.h"

#include <string.h>

#include "bench/result/conduct.h"
#include "bench/result/mma_audit.h"

static int is(const char *text, const char *value)
{
    return text && !strcmp(text, value);
}

static void count_kind(hb_mma_census *c, const hb_mma_audit *audit)
{
    const char *kind = hb_mma_audit_class(audit);
    if (is(kind, "f16"))
        c->mma_f16++;
    else if (is(kind, "f32"))
        c->mma_f32++;
    else if (is(kind, "f16+f32"))
        c->mma_both++;
    else
        c->simt++;
}

hb_mma_census_row hb_mma_census_add(hb_mma_census *c, const char *mma_cell, const char *acc_class,
                                    const char *verdict, const char *check)
{
    c->rows++;
    int deviation_failed = is(check, "deviation") && !is(verdict, "pass");
    c->deviation_failures += deviation_failed;
    hb_mma_audit audit;
    if (!mma_cell || !hb_mma_audit_parse_cell(mma_cell, &audit)) {
        c->unknown++;
        return HB_CENSUS_OTHER;
    }
    count_kind(c, &audit);
    hb_conduct findings = {0};
    if (!is(acc_class, "fp32") || !hb_mma_findings(&audit, HB_ACC_FP32, &findings))
        return HB_CENSUS_OTHER;
    c->fp16_only++;
    c->deviation_failures_fp16 += deviation_failed;
    if (!is(verdict, "pass"))
        return HB_CENSUS_FP16_ONLY;
    c->fp16_only_passed++;
    return HB_CENSUS_FP16_ONLY_PASSED;
}
