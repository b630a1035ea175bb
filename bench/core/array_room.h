/* Room for one more element in a growable array, for records appended where
 * no error can be returned (CUPTI's buffer callbacks, the call monitor's API
 * callbacks): they count what they could not keep instead. */
#ifndef HB_ARRAY_ROOM_H
#define HB_ARRAY_ROOM_H

#include <stddef.h>

/* Makes room for element n of `size` bytes in *items, doubling the capacity
 * (from 256) when full; 1 when there is room, 0 on out of memory (the array
 * left as it was). */
int hb_array_room(void **items, size_t *cap, size_t n, size_t size);

#endif
