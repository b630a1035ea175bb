/* Helpers shared by the test files: temporary folders. */
#ifndef HB_TEST_UTIL_H
#define HB_TEST_UTIL_H

#include <stddef.h>

/* Creates a fresh folder $TMPDIR/<prefix>-<random> (or under /tmp) and writes its path; fails the test otherwise. */
void hb_test_make_temp_dir(const char *prefix, char *dir, size_t size);
/* Removes a folder and everything under it. */
void hb_test_remove_tree(const char *path);

#endif
