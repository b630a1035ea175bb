/* Tests of baselines/autotune_cache.c: the on-disk cache of the cuBLASLt
 * autotune baseline.  CPU only.
 *
 * The concurrent-writer test forks children that only call the cache and
 * _exit: cmocka's assertions must not run in a child (a failure would longjmp
 * into the parent's test runner). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "baselines/autotune_cache.h"
#include "bench/core/diag.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define HEADER_LINE                                                                                                  \
    "# hgemm-bench cuBLASLt autotune cache, format 1. One line per key; tab-separated; the last field is a "       \
    "checksum of the others. Edit at your own risk: a line whose checksum does not match is ignored."
#define COLUMNS_LINE                                                                                                 \
    "# gpu_name\tgpu_id\tdriver\tcublaslt_version\tacc\tlayout\tworkspace_bytes\tm\tn\tk\talgo_text\tmedian_us\t" \
    "candidates\tsearch_s\tcreated\talgo_data\tchecksum"

/* --- helpers ------------------------------------------------------------------- */

/* A fully populated entry; `seed` makes the key and every value distinct. */
static hb_autotune_entry make_entry(long seed)
{
    hb_autotune_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.key.gpu_name, sizeof e.key.gpu_name, "NVIDIA H200");
    snprintf(e.key.gpu_id, sizeof e.key.gpu_id, "GPU-8c1f3a2e-55aa-4e0b-9d1c-%012ld", seed);
    snprintf(e.key.driver, sizeof e.key.driver, "580.95.05");
    e.key.cublaslt_version = 130100;
    snprintf(e.key.acc, sizeof e.key.acc, seed % 2 ? "fp16" : "fp32");
    snprintf(e.key.layout, sizeof e.key.layout, seed % 3 ? "tn" : "nn");
    e.key.workspace_bytes = (uint64_t)32 << 20;
    e.key.m = 4096 + seed;
    e.key.n = 1024;
    e.key.k = 8192;
    /* words that catch a lost high bit, a zero, all ones and a byte-order slip */
    e.algo[0] = 0x0123456789abcdefu;
    e.algo[1] = 0;
    e.algo[2] = UINT64_MAX;
    e.algo[3] = 0x8000000000000000u;
    for (int i = 4; i < 8; i++)
        e.algo[i] = (uint64_t)seed * 0x9e3779b97f4a7c15u + (uint64_t)i;
    snprintf(e.algo_text, sizeof e.algo_text,
             "id=%ld tile=128x256 stages=64x4 splitk=1 reduction=none swizzle=0 custom=0 cluster=2x1x1", 21 + seed);
    e.median_us = 1234.5678901234567 + (double)seed / 3.0; /* needs all 17 digits to read back */
    e.candidates = 100 - (int)seed % 7;
    e.search_s = 0.1 + 1e-13 * (double)seed;
    snprintf(e.created, sizeof e.created, "2026-11-21T10:00:%02ldZ", seed % 60);
    return e;
}

static void assert_entry_equal(const hb_autotune_entry *a, const hb_autotune_entry *b)
{
    assert_string_equal(a->key.gpu_name, b->key.gpu_name);
    assert_string_equal(a->key.gpu_id, b->key.gpu_id);
    assert_string_equal(a->key.driver, b->key.driver);
    assert_int_equal(a->key.cublaslt_version, b->key.cublaslt_version);
    assert_string_equal(a->key.acc, b->key.acc);
    assert_string_equal(a->key.layout, b->key.layout);
    assert_true(a->key.workspace_bytes == b->key.workspace_bytes);
    assert_int_equal(a->key.m, b->key.m);
    assert_int_equal(a->key.n, b->key.n);
    assert_int_equal(a->key.k, b->key.k);
    for (int i = 0; i < 8; i++)
        assert_true(a->algo[i] == b->algo[i]);
    assert_string_equal(a->algo_text, b->algo_text);
    assert_true(a->median_us == b->median_us); /* exactly: %.17g round-trips */
    assert_int_equal(a->candidates, b->candidates);
    assert_true(a->search_s == b->search_s);
    assert_string_equal(a->created, b->created);
}

static void assert_found(const char *path, const hb_autotune_entry *want)
{
    hb_autotune_entry got;
    int found = -1;
    assert_int_equal(hb_autotune_cache_lookup(path, &want->key, &got, &found), HB_OK);
    assert_int_equal(found, 1);
    assert_entry_equal(&got, want);
}

static void assert_not_found(const char *path, const hb_autotune_key *key)
{
    hb_autotune_entry got;
    int found = -1;
    assert_int_equal(hb_autotune_cache_lookup(path, key, &got, &found), HB_OK);
    assert_int_equal(found, 0);
}

/* The whole file as a C string; the caller frees it. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = malloc(1 << 20);
    assert_non_null(text);
    size_t n = fread(text, 1, (1 << 20) - 1, f);
    assert_int_equal(ferror(f), 0);
    fclose(f);
    text[n] = '\0';
    return text;
}

static void write_all(const char *path, const char *bytes, size_t length)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, length, f), length);
    assert_int_equal(fclose(f), 0);
}

static int count_lines(const char *text)
{
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    return lines;
}

/* Copies line `index` (0-based, without '\n') of `text` into `out`. */
static void nth_line(const char *text, int index, char *out, size_t size)
{
    const char *p = text;
    for (int i = 0; i < index; i++) {
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    size_t n = strcspn(p, "\n");
    assert_true(n < size);
    memcpy(out, p, n);
    out[n] = '\0';
}

static void append_bytes(char *buffer, size_t *used, size_t size, const char *bytes, size_t length)
{
    assert_true(*used + length <= size);
    memcpy(buffer + *used, bytes, length);
    *used += length;
}

static void append_line(char *buffer, size_t *used, size_t size, const char *line)
{
    append_bytes(buffer, used, size, line, strlen(line));
    append_bytes(buffer, used, size, "\n", 1);
}

/* The documented checksum, computed independently of the cache code. */
static uint64_t fnv1a(const char *bytes, size_t length)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < length; i++)
        hash = (hash ^ (unsigned char)bytes[i]) * 0x100000001b3u;
    return hash;
}

/* `body` with its correct checksum appended after a tab. */
static void with_checksum(const char *body, char *out, size_t size)
{
    int n = snprintf(out, size, "%s\t%016" PRIx64, body, fnv1a(body, strlen(body)));
    assert_true(n > 0 && (size_t)n < size);
}

static int count_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        count += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                 !strstr(e->d_name, ".lock"); /* bench/core/out_file.h's .NAME.XXXXXX */
    closedir(d);
    return count;
}

/* --- tests ------------------------------------------------------------------------ */

static void test_autotune_cache_round_trip(void **state)
{
    (void)state;
    char dir[512], path[700], line[2048];
    hb_test_make_temp_dir("hb-test-autotune", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/a/b/cublaslt-autotune.tsv", dir); /* a/ and b/ do not exist yet */
    hb_autotune_entry one = make_entry(1), two = make_entry(2), three = make_entry(3);
    assert_int_equal(hb_autotune_cache_store(path, &one), HB_OK);
    assert_int_equal(hb_autotune_cache_store(path, &two), HB_OK);
    assert_found(path, &one);
    assert_found(path, &two);
    assert_not_found(path, &three.key);

    char *text = read_all(path);
    nth_line(text, 0, line, sizeof line);
    assert_string_equal(line, HEADER_LINE);
    nth_line(text, 1, line, sizeof line);
    assert_string_equal(line, COLUMNS_LINE);
    assert_int_equal(count_lines(text), 4);
    assert_non_null(strstr(text, "NVIDIA H200\t"));
    assert_non_null(strstr(text, one.algo_text));
    assert_non_null(strstr(text, "0123456789abcdef:0000000000000000:ffffffffffffffff:8000000000000000:"));
    /* each entry line's last field is FNV-1a of the bytes before the last tab */
    for (int i = 2; i < 4; i++) {
        nth_line(text, i, line, sizeof line);
        char *last_tab = strrchr(line, '\t');
        assert_non_null(last_tab);
        char want[17];
        snprintf(want, sizeof want, "%016" PRIx64, fnv1a(line, (size_t)(last_tab - line)));
        assert_string_equal(last_tab + 1, want);
    }
    free(text);
    assert_int_equal(count_temporaries(dir), 0);
    hb_test_remove_tree(dir);
}

static void test_autotune_cache_replace(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-test-autotune", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/cache.tsv", dir);
    hb_autotune_entry old = make_entry(5), other = make_entry(6);
    hb_autotune_entry newer = old;
    newer.algo[0] = 42;
    newer.median_us = 999.25;
    newer.candidates = 17;
    snprintf(newer.algo_text, sizeof newer.algo_text, "id=7 tile=64x64");
    assert_int_equal(hb_autotune_cache_store(path, &old), HB_OK);
    assert_int_equal(hb_autotune_cache_store(path, &other), HB_OK);
    assert_int_equal(hb_autotune_cache_store(path, &newer), HB_OK);
    assert_found(path, &newer);
    assert_found(path, &other);
    char *text = read_all(path);
    assert_int_equal(count_lines(text), 2 + 2);
    assert_null(strstr(text, old.algo_text));
    assert_non_null(strstr(text, "id=7 tile=64x64"));
    free(text);
    hb_test_remove_tree(dir);
}

static void test_autotune_cache_missing_or_unreadable(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-test-autotune", dir, sizeof dir);
    hb_autotune_entry e = make_entry(1), got;
    snprintf(path, sizeof path, "%s/no-such-folder/cache.tsv", dir);
    assert_not_found(path, &e.key);
    snprintf(path, sizeof path, "%s/cache.tsv", dir);
    assert_not_found(path, &e.key);
    /* a lookup creates nothing */
    assert_int_not_equal(access(path, F_OK), 0);
    /* exists but cannot be read: a folder */
    char folder[700];
    snprintf(folder, sizeof folder, "%s/a-folder.tsv", dir);
    assert_int_equal(mkdir(folder, 0777), 0);
    int found = -1;
    assert_int_equal(hb_autotune_cache_lookup(folder, &e.key, &got, &found), HB_ERR_IO);
    assert_int_equal(found, 0);
    assert_non_null(strstr(hb_last_error(), folder));
    /* a store does not replace what it cannot read, and leaves no temporary file */
    assert_int_equal(hb_autotune_cache_store(folder, &e), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), folder));
    assert_int_equal(count_temporaries(dir), 0);
    /* a store whose parent is a regular file fails with I/O, naming the path */
    char file[700], below[800];
    snprintf(file, sizeof file, "%s/plain-file", dir);
    write_all(file, "x\n", 2);
    snprintf(below, sizeof below, "%s/cache.tsv", file);
    assert_int_equal(hb_autotune_cache_store(below, &e), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), file));
    hb_test_remove_tree(dir);
}

static void test_autotune_cache_corrupt_lines(void **state)
{
    (void)state;
    char dir[512], path[700], line[2048], flipped[2048], body[2048], extra[2048];
    hb_test_make_temp_dir("hb-test-autotune", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/cache.tsv", dir);
    hb_autotune_entry a = make_entry(1), b = make_entry(2), c = make_entry(3), d = make_entry(4);
    assert_int_equal(hb_autotune_cache_store(path, &a), HB_OK);
    assert_int_equal(hb_autotune_cache_store(path, &b), HB_OK);
    assert_int_equal(hb_autotune_cache_store(path, &c), HB_OK);
    char *clean = read_all(path);

    /* b's line with one character of its key flipped: it would parse, but the checksum does not match */
    nth_line(clean, 3, line, sizeof line);
    assert_non_null(strstr(line, b.key.gpu_id));
    snprintf(flipped, sizeof flipped, "%s", line);
    flipped[0] = 'X';
    hb_autotune_entry b_flipped = b;
    b_flipped.key.gpu_name[0] = 'X';
    /* a line with an 18th field and a checksum that matches it */
    nth_line(clean, 4, line, sizeof line);
    snprintf(body, sizeof body, "%.*s\textra", (int)(strrchr(line, '\t') - line), line);
    with_checksum(body, extra, sizeof extra);
    /* c's line cut short, after the intact one: it must not shadow it */
    char cut[64];
    snprintf(cut, sizeof cut, "%.40s", line);

    char corrupt[16384];
    size_t n = 0;
    nth_line(clean, 2, line, sizeof line); /* a */
    append_line(corrupt, &n, sizeof corrupt, HEADER_LINE);
    append_line(corrupt, &n, sizeof corrupt, COLUMNS_LINE);
    append_line(corrupt, &n, sizeof corrupt, line);
    static const char garbage[] = {'\x01', '\xff', '\0', 'z', '\t', '\xfe', '\x7f', '\t', '\n'};
    append_bytes(corrupt, &n, sizeof corrupt, garbage, sizeof garbage);
    append_line(corrupt, &n, sizeof corrupt, flipped);
    nth_line(clean, 4, line, sizeof line); /* c */
    append_line(corrupt, &n, sizeof corrupt, line);
    append_line(corrupt, &n, sizeof corrupt, extra);
    append_line(corrupt, &n, sizeof corrupt, cut);
    append_line(corrupt, &n, sizeof corrupt, "");
    append_line(corrupt, &n, sizeof corrupt, "# a comment");
    append_bytes(corrupt, &n, sizeof corrupt, "NVIDIA H200\tGPU-trunc", 21); /* a last line without its newline */
    write_all(path, corrupt, n);

    /* (a) lookups find the valid lines and skip the bad ones without failing */
    assert_found(path, &a);
    assert_found(path, &c);
    assert_not_found(path, &b.key);         /* its only copy is damaged */
    assert_not_found(path, &b_flipped.key); /* the damaged line is not trusted under its new key either */

    /* a file of garbage bytes only, and a valid line under a header of another format */
    char other[700];
    snprintf(other, sizeof other, "%s/garbage.tsv", dir);
    static const char noise[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\t\t\t\xff\xff";
    write_all(other, noise, sizeof noise);
    assert_not_found(other, &a.key);
    nth_line(clean, 2, line, sizeof line);
    snprintf(corrupt, sizeof corrupt, "# hgemm-bench cuBLASLt autotune cache, format 2. Newer.\n%s\n", line);
    snprintf(other, sizeof other, "%s/format2.tsv", dir);
    write_all(other, corrupt, strlen(corrupt));
    assert_not_found(other, &a.key);

    /* (b) a store keeps every valid entry and drops every bad line */
    assert_int_equal(hb_autotune_cache_store(path, &d), HB_OK);
    assert_found(path, &a);
    assert_found(path, &c);
    assert_found(path, &d);
    char *text = read_all(path);
    assert_int_equal(count_lines(text), 2 + 3);
    /* nothing of the garbage survives: plain printable text only */
    for (const char *p = text; *p; p++)
        assert_true(*p == '\t' || *p == '\n' || (*p >= ' ' && *p <= '~'));
    assert_null(strstr(text, "extra"));
    assert_null(strstr(text, "GPU-trunc"));
    free(text);
    free(clean);
    hb_test_remove_tree(dir);
}

/* Each key field in turn differs by one value; the entry must not answer for the original key. */
static void test_autotune_cache_key_mismatch(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-test-autotune", dir, sizeof dir);
    const hb_autotune_entry original = make_entry(8);
    enum { FIELDS = 10 };
    for (int field = 0; field < FIELDS; field++) {
        hb_autotune_entry variant = original;
        hb_autotune_key *k = &variant.key;
        switch (field) {
        case 0:
            snprintf(k->gpu_name, sizeof k->gpu_name, "NVIDIA H100 80GB HBM3");
            break;
        case 1:
            k->gpu_id[strlen(k->gpu_id) - 1] ^= 1;
            break;
        case 2:
            snprintf(k->driver, sizeof k->driver, "580.95.06");
            break;
        case 3:
            k->cublaslt_version++;
            break;
        case 4:
            snprintf(k->acc, sizeof k->acc, strcmp(k->acc, "fp32") ? "fp32" : "fp16");
            break;
        case 5:
            snprintf(k->layout, sizeof k->layout, strcmp(k->layout, "nn") ? "nn" : "tn");
            break;
        case 6:
            k->workspace_bytes--;
            break;
        case 7:
            k->m++;
            break;
        case 8:
            k->n++;
            break;
        default:
            k->k++;
            break;
        }
        variant.median_us = 1.0 + field;
        assert_false(hb_autotune_key_equal(&variant.key, &original.key));
        assert_true(hb_autotune_key_equal(&variant.key, &variant.key));

        /* alone in a file: no answer for the original key */
        snprintf(path, sizeof path, "%s/only-%d.tsv", dir, field);
        assert_int_equal(hb_autotune_cache_store(path, &variant), HB_OK);
        assert_not_found(path, &original.key);
        assert_found(path, &variant);
        /* beside the original: each answers for its own key only */
        assert_int_equal(hb_autotune_cache_store(path, &original), HB_OK);
        assert_found(path, &original);
        assert_found(path, &variant);
    }
    hb_test_remove_tree(dir);
}

#define WRITERS 8
#define ENTRIES_PER_WRITER 25

/* In a child: waits for the start signal (EOF on `start`), stores its entries, _exits 0 if all succeeded. */
static void concurrent_writer(int writer, int start, const char *path)
{
    char byte;
    if (read(start, &byte, 1) != 0)
        _exit(2);
    for (int i = 0; i < ENTRIES_PER_WRITER; i++) {
        hb_autotune_entry e = make_entry(writer * 1000 + i);
        if (hb_autotune_cache_store(path, &e) != HB_OK)
            _exit(1);
    }
    _exit(0);
}

static void test_autotune_cache_concurrent_writers(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-test-autotune", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/cache.tsv", dir);
    int start[2];
    assert_int_equal(pipe(start), 0);
    pid_t children[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        children[w] = fork();
        assert_true(children[w] >= 0);
        if (children[w] == 0) {
            close(start[1]);
            concurrent_writer(w, start[0], path);
        }
    }
    /* all children block on the pipe: closing its write end starts them together */
    close(start[0]);
    close(start[1]);
    for (int w = 0; w < WRITERS; w++) {
        int status;
        assert_int_equal(waitpid(children[w], &status, 0), children[w]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    for (int w = 0; w < WRITERS; w++)
        for (int i = 0; i < ENTRIES_PER_WRITER; i++) {
            hb_autotune_entry e = make_entry(w * 1000 + i);
            assert_found(path, &e);
        }
    char *text = read_all(path);
    assert_int_equal(count_lines(text), 2 + WRITERS * ENTRIES_PER_WRITER);
    free(text);
    assert_int_equal(count_temporaries(dir), 0);
    hb_test_remove_tree(dir);
}

static void test_autotune_cache_rejects_tab(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-test-autotune", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/cache.tsv", dir);
    hb_autotune_entry good = make_entry(1);
    assert_int_equal(hb_autotune_cache_store(path, &good), HB_OK);
    char *before = read_all(path);

    hb_autotune_entry tab = make_entry(2);
    snprintf(tab.algo_text, sizeof tab.algo_text, "id=1\ttile=64x64");
    assert_int_equal(hb_autotune_cache_store(path, &tab), HB_ERR_INTERNAL);
    assert_non_null(strstr(hb_last_error(), "algo_text"));
    hb_autotune_entry newline = make_entry(3);
    snprintf(newline.key.gpu_name, sizeof newline.key.gpu_name, "NVIDIA\nH200");
    assert_int_equal(hb_autotune_cache_store(path, &newline), HB_ERR_INTERNAL);
    assert_non_null(strstr(hb_last_error(), "gpu_name"));
    hb_autotune_entry unterminated = make_entry(4);
    memset(unterminated.created, 'Z', sizeof unterminated.created);
    assert_int_equal(hb_autotune_cache_store(path, &unterminated), HB_ERR_INTERNAL);

    char *after = read_all(path);
    assert_string_equal(after, before);
    assert_not_found(path, &tab.key);
    assert_found(path, &good);
    assert_int_equal(count_temporaries(dir), 0);
    free(before);
    free(after);
    hb_test_remove_tree(dir);
}

/* --- default path: the environment is saved by the setup and restored by the teardown --- */

static const char *const PATH_VARIABLES[] = {"HGEMM_BENCH_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
#define PATH_VARIABLE_COUNT 3
static char *saved_environment[PATH_VARIABLE_COUNT]; /* NULL: was unset */

static int save_environment(void **state)
{
    (void)state;
    for (int i = 0; i < PATH_VARIABLE_COUNT; i++) {
        const char *value = getenv(PATH_VARIABLES[i]);
        saved_environment[i] = value ? strdup(value) : NULL;
        if (value && !saved_environment[i])
            return -1;
    }
    return 0;
}

static int restore_environment(void **state)
{
    (void)state;
    int failed = 0;
    for (int i = 0; i < PATH_VARIABLE_COUNT; i++) {
        if (saved_environment[i])
            failed |= setenv(PATH_VARIABLES[i], saved_environment[i], 1);
        else
            failed |= unsetenv(PATH_VARIABLES[i]);
        free(saved_environment[i]);
        saved_environment[i] = NULL;
    }
    return failed ? -1 : 0;
}

static void test_autotune_cache_default_path(void **state)
{
    (void)state;
    char path[256];
    assert_int_equal(setenv("HGEMM_BENCH_CACHE_DIR", "/srv/hb-cache", 1), 0);
    assert_int_equal(setenv("XDG_CACHE_HOME", "/xdg", 1), 0);
    assert_int_equal(setenv("HOME", "/home/someone", 1), 0);
    assert_int_equal(hb_autotune_cache_default_path(path, sizeof path), HB_OK);
    assert_string_equal(path, "/srv/hb-cache/cublaslt-autotune.tsv");

    assert_int_equal(unsetenv("HGEMM_BENCH_CACHE_DIR"), 0);
    assert_int_equal(hb_autotune_cache_default_path(path, sizeof path), HB_OK);
    assert_string_equal(path, "/xdg/hgemm-bench/cublaslt-autotune.tsv");

    assert_int_equal(unsetenv("XDG_CACHE_HOME"), 0);
    assert_int_equal(hb_autotune_cache_default_path(path, sizeof path), HB_OK);
    assert_string_equal(path, "/home/someone/.cache/hgemm-bench/cublaslt-autotune.tsv");
    /* an empty XDG_CACHE_HOME counts as unset */
    assert_int_equal(setenv("XDG_CACHE_HOME", "", 1), 0);
    assert_int_equal(hb_autotune_cache_default_path(path, sizeof path), HB_OK);
    assert_string_equal(path, "/home/someone/.cache/hgemm-bench/cublaslt-autotune.tsv");

    /* too small a buffer, then no variable at all */
    char small[16];
    assert_int_equal(hb_autotune_cache_default_path(small, sizeof small), HB_ERR_IO);
    assert_int_equal(unsetenv("XDG_CACHE_HOME"), 0);
    assert_int_equal(unsetenv("HOME"), 0);
    assert_int_equal(hb_autotune_cache_default_path(path, sizeof path), HB_ERR_IO);
}

static const struct CMUnitTest autotune_cache_tests[] = {
    cmocka_unit_test(test_autotune_cache_round_trip),
    cmocka_unit_test(test_autotune_cache_replace),
    cmocka_unit_test(test_autotune_cache_missing_or_unreadable),
    cmocka_unit_test(test_autotune_cache_corrupt_lines),
    cmocka_unit_test(test_autotune_cache_key_mismatch),
    cmocka_unit_test(test_autotune_cache_concurrent_writers),
    cmocka_unit_test(test_autotune_cache_rejects_tab),
    cmocka_unit_test_setup_teardown(test_autotune_cache_default_path, save_environment, restore_environment),
};

hb_test_list hb_autotune_cache_tests(void) { return HB_TEST_LIST(autotune_cache_tests); }
