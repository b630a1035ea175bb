/* Which harness made a result: the git commit it was built from. */
#ifndef HB_VERSION_H
#define HB_VERSION_H

/* The commit baked in at build time ("unknown" outside git; "-dirty" when
 * the tree had changes). */
const char *hb_harness_commit(void);

#endif
