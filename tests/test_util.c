#define _XOPEN_SOURCE 700
#include "tests/test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

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

size_t hb_test_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t count = 0;
    for (struct dirent *e; (e = readdir(d));)
        count += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return count;
}

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

int hb_test_have_gnuplot(void) { return hb_test_shell("command -v gnuplot >/dev/null 2>&1") == 0; }

void hb_test_make_folder(const char *path)
{
    if (hb_make_folders(path, "a test's output folder") != HB_OK)
        fail_msg("cannot create %s: %s", path, hb_last_error());
}

const char *hb_test_report(void)
{
    const char *path = getenv("HB_REPORT");
    return path && *path ? path : "build/hgemm-report";
}

/* In the child: stdout and stderr to their files, then the program. */
static void become(char **argv, const char *out, const char *err)
{
    const char *quiet = getenv("HB_TEST_VERBOSE") ? "/dev/stderr" : "/dev/null";
    int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = err ? open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open(quiet, O_WRONLY);
    if (o < 0 || e < 0 || dup2(o, STDOUT_FILENO) < 0 || dup2(e, STDERR_FILENO) < 0)
        _exit(126);
    execv(argv[0], argv);
    _exit(127);
}

int hb_test_run(const char *binary, const char *const *words, const char *out, const char *err)
{
    char *argv[64];
    size_t n = 0;
    argv[n++] = (char *)binary;
    for (; *words && n < 63; words++)
        argv[n++] = (char *)*words;
    argv[n] = NULL;
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        become(argv, out, err);
    int status;
    assert_true(waitpid(child, &status, 0) == child);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

const json_t *hb_test_json_table(const json_t *doc, const char *name)
{
    const json_t *tables = json_object_get(doc, "tables");
    for (size_t i = 0; i < json_array_size(tables); i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(tables, i), "name")), name))
            return json_array_get(tables, i);
    fail_msg("the document has no table %s", name);
    return NULL;
}

size_t hb_test_json_column(const json_t *table, const char *name)
{
    const json_t *columns = json_object_get(table, "columns");
    for (size_t i = 0; i < json_array_size(columns); i++)
        if (!strcmp(json_string_value(json_array_get(columns, i)), name))
            return i;
    fail_msg("table %s has no column %s", json_string_value(json_object_get(table, "name")), name);
    return 0;
}

const json_t *hb_test_json_cell(const json_t *table, size_t row, const char *column)
{
    return json_array_get(json_array_get(json_object_get(table, "rows"), row), hb_test_json_column(table, column));
}
