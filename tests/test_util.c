#define _XOPEN_SOURCE 700
#include "tests/test_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"
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

char *hb_test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t size = 0, used = 0;
    for (;;) {
        if (used + 4096 + 1 > size) {
            size = size ? 2 * size : 8192;
            char *grown = realloc(text, size);
            assert_non_null(grown);
            text = grown;
        }
        size_t n = fread(text + used, 1, size - used - 1, f);
        used += n;
        if (n == 0)
            break;
    }
    fclose(f);
    text[used] = '\0';
    return text;
}

int hb_test_file_contains(const char *path, const char *needle)
{
    char *text = hb_test_read_file(path);
    int found = text && strstr(text, needle) != NULL;
    free(text);
    return found;
}

FILE *hb_test_capture_open(hb_test_capture *capture)
{
    capture->text = NULL;
    capture->size = 0;
    capture->stream = open_memstream(&capture->text, &capture->size);
    assert_non_null(capture->stream);
    return capture->stream;
}

char *hb_test_capture_close(hb_test_capture *capture)
{
    assert_int_equal(fclose(capture->stream), 0);
    return capture->text;
}

json_t *hb_test_load_json(const char *path)
{
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root)
        fail_msg("%s: %s", path, error.text);
    return root;
}

const char *hb_test_bench(void)
{
    const char *path = getenv("HB_BENCH");
    return path ? path : "build/hgemm-bench";
}

int hb_test_shell(const char *command)
{
    int rc = system(command);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

void hb_test_make_folder(const char *path)
{
    if (hb_make_folders(path, "a test's output folder") != HB_OK)
        fail_msg("cannot create %s: %s", path, hb_last_error());
}
