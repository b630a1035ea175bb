#define _XOPEN_SOURCE 700
#include "tests/test_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/test_registry.h"

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

void hb_test_remove_tree(const char *path) { nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

void hb_test_make_temp_dir(const char *prefix, char *dir, size_t size)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, size, "%s/%s-XXXXXX", base && *base ? base : "/tmp", prefix);
    assert_non_null(mkdtemp(dir));
}
