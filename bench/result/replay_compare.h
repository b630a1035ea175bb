/* Whether two relocated operations (bench/result/replay_relocate.h) are the
 * same operation: what the steady state of a replay means (every call from
 * the second on issues the same sequence).  Raw addresses are gone by then,
 * so a pointer compares by target and offset, and the parameter bytes that
 * a relocation or a TMA descriptor covers are not compared.  Plain data. */
#ifndef HB_REPLAY_COMPARE_H
#define HB_REPLAY_COMPARE_H

#include <stddef.h>

#include "bench/result/replay_plan.h"

/* 0 when `a` and `b` are the same operation; else 1, with the first
 * difference in `why`, a's side first ("grid 132x1x1 against 128x1x1").
 * `plan` names the kernels. */
int hb_replay_op_differs(const hb_replay_plan *plan, const hb_replay_op *a, const hb_replay_op *b, char *why,
                         size_t size);

#endif
