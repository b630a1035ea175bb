/* Synthetic launch captures (bench/result/replay_capture.h) for the replay
 * tests: the harness's buffers at fixed raw addresses, kernels whose
 * parameters hold pointers into them, the launcher's allocations and TMA
 * descriptors, each at the next sequence number. */
#ifndef HB_TEST_REPLAY_FIXTURE_H
#define HB_TEST_REPLAY_FIXTURE_H

#include <stdint.h>

#include "bench/result/replay_capture.h"

#define FIX_A 0x7f0000000000ull
#define FIX_B 0x7f0000100000ull
#define FIX_C 0x7f0000200000ull
#define FIX_BUFFER_BYTES 0x80000ull
#define FIX_UNKNOWN 0x7e0000001000ull /* a device address in nothing the capture knows */

/* A capture of `calls` calls: buffers A, B and C, one stream, one module,
 * kernels named `names` (NULL-terminated, at most HB_REPLAY_MAX_FUNCTIONS). */
hb_replay_capture *fix_capture(int calls, const char *const *names);

/* The next sequence number of the capture. */
uint64_t fix_seq(void);

/* A kernel of `function` in `call`: parameters A, B, C (bytes 0, 8, 16,
 * marked device words) and m, n, k (ints at 24, 28, 32), grid grid_x x 1 x 1,
 * 128 threads; 40 parameter bytes.  The caller may add words past them. */
hb_capture_op *fix_kernel(hb_replay_capture *capture, int call, uint32_t function, uint32_t grid_x);

/* The 8 bytes at `at` of a kernel's parameters set to `value`, marked a
 * device word when `device`; param_bytes grown to cover them. */
void fix_word(hb_capture_op *op, uint32_t at, uint64_t value, int device);

/* A memset of `count` 4-byte elements at `dst` in `call`. */
hb_capture_op *fix_memset(hb_replay_capture *capture, int call, uint64_t dst, uint64_t count);

/* An allocation of `bytes` at `base` in `call`; fix_free ends it now. */
hb_capture_alloc *fix_alloc(hb_replay_capture *capture, int call, uint64_t base, uint64_t bytes);
void fix_free(hb_capture_alloc *alloc);

/* A 2-D TMA descriptor of fp16 over `address`, its encoded bytes a pattern
 * holding the raw address (as a CUtensorMap does) at byte 0. */
hb_capture_map *fix_map(hb_replay_capture *capture, uint64_t address);

/* The map's 128 bytes at `at` (64-aligned) in the kernel's parameters, its address word a device word. */
void fix_put_map(hb_capture_op *op, const hb_capture_map *map, uint32_t at);

#endif
