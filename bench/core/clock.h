/* Host monotonic clock, seconds. */
#ifndef HB_CLOCK_H
#define HB_CLOCK_H

double hb_now_s(void);

#endif
