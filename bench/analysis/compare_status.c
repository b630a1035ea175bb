#include "bench/analysis/compare_status.h"

#include <math.h>

const char *hb_compare_status_name(hb_compare_status status)
{
    static const char *const names[HB_CMP_STATUS_COUNT] = {"same", "faster", "slower", "unknown"};
    return status < HB_CMP_STATUS_COUNT ? names[status] : "unknown";
}

hb_compare_status hb_compare_status_of(double ours, double published, double our_noise, double noise_floor,
                                       double *diff, double *noise)
{
    *diff = ours > 0 && published > 0 ? ours / published - 1.0 : NAN;
    double floor = noise_floor > 0 ? noise_floor : NAN;
    /* the larger of the two where both are known: NaN is ignored by fmax */
    *noise = our_noise >= 0 ? fmax(our_noise, floor) : floor;
    if (isnan(*diff) || isnan(*noise))
        return HB_CMP_UNKNOWN;
    if (fabs(*diff) <= *noise)
        return HB_CMP_SAME;
    return *diff > 0 ? HB_CMP_FASTER : HB_CMP_SLOWER;
}
