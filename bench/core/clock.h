/* Host clocks: monotonic seconds for intervals, UTC wall time for records. */
#ifndef HB_CLOCK_H
#define HB_CLOCK_H

#include <stddef.h>

double hb_now_s(void);

/* The UTC time now, ISO 8601 ("2026-11-23T10:15:00Z"); "unknown" if the
 * system cannot say. */
void hb_utc_now(char *out, size_t size);

#endif
