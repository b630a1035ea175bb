/* Tests of bench/report/raw_samples.c: the --raw file read back byte by byte at the
 * documented offsets (not through the writer's own struct), its header,
 * its errors, and plots/plot_raw.sh on it. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/report/raw_samples.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PARTICIPANTS 3
#define ROUNDS 5
#define LONG_NAME "a-participant-name-that-is-longer-than-sixty-three-characters-by-a-few"

/* float32 keeps 24 bits: relative error at most 2^-24 ~ 6e-8 */
#define CLOSE_F32(actual, expected) \
    assert_true(fabs((double)(actual) - (double)(expected)) <= 1.2e-7 * fabs((double)(expected)) + 1e-12)

static const char *const NAMES[PARTICIPANTS] = {"candidate", "cublas-nn", LONG_NAME};

/* Known values, distinct per participant and round, not exact in float32. */
static double event_ms(size_t p, size_t r) { return 0.0123456789 * (double)(p + 1) + 0.001 * (double)r; }
static double wall_ms(size_t p, size_t r) { return 1.1 * event_ms(p, r) + 0.0031; }
static double slot_of(size_t p, size_t r) { return (double)((p + r) % PARTICIPANTS); }
static double start_s(size_t p, size_t r) { return 0.5 * (double)r + 0.01 * (double)p + 0.000123; }
static double gap_ms(size_t p, size_t r) { return 0.25 * (double)p + 0.01 * (double)r + 0.0007; }

static void push(hb_sample_vec *vec, double value) { assert_int_equal(hb_sample_vec_push(vec, value), HB_OK); }

static void fill(hb_participant_samples *samples, size_t participants, size_t rounds, int detail)
{
    memset(samples, 0, participants * sizeof *samples);
    for (size_t p = 0; p < participants; p++)
        for (size_t r = 0; r < rounds; r++) {
            push(&samples[p].event_ms, event_ms(p, r));
            push(&samples[p].wall_ms, wall_ms(p, r));
            if (!detail)
                continue;
            push(&samples[p].slot, slot_of(p, r));
            push(&samples[p].start_s, start_s(p, r));
            push(&samples[p].gap_ms, gap_ms(p, r));
        }
}

static void free_samples(hb_participant_samples *samples, size_t participants)
{
    for (size_t p = 0; p < participants; p++) {
        hb_sample_vec_free(&samples[p].event_ms);
        hb_sample_vec_free(&samples[p].wall_ms);
        hb_sample_vec_free(&samples[p].slot);
        hb_sample_vec_free(&samples[p].start_s);
        hb_sample_vec_free(&samples[p].gap_ms);
    }
}

static hb_raw_meta test_meta(void)
{
    hb_raw_meta meta = {.m = 128, .n = 256, .k = 4097, .mode = "server", .gap = "per-call", .mean_gap_ms = 0.5,
                        .l2_policy = "flush", .timer_note = "cudaEvent pair\nsecond line", .seed = 12345678901234ULL};
    return meta;
}

/* ---- reading the file independently of the writer ---------------------- */

typedef struct decoded_record {
    uint32_t round;
    uint16_t participant, slot;
    float start_s, event_us, wall_us, gap_us;
} decoded_record;

static uint32_t le32(const unsigned char *at)
{
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static float le_float(const unsigned char *at)
{
    uint32_t bits = le32(at);
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static decoded_record decode(const unsigned char *bytes)
{
    decoded_record r = {
        .round = le32(bytes),
        .participant = (uint16_t)(bytes[4] | bytes[5] << 8),
        .slot = (uint16_t)(bytes[6] | bytes[7] << 8),
        .start_s = le_float(bytes + 8),
        .event_us = le_float(bytes + 12),
        .wall_us = le_float(bytes + 16),
        .gap_us = le_float(bytes + 20),
    };
    return r;
}

static long file_size(const char *path)
{
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    assert_int_equal(fseek(in, 0, SEEK_END), 0);
    long size = ftell(in);
    fclose(in);
    return size;
}

static int file_exists(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (in)
        fclose(in);
    return in != NULL;
}

/* The header's text area as a string. */
static void read_header_text(const char *path, char *text)
{
    unsigned char header[HB_RAW_HEADER_BYTES];
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    assert_int_equal(fread(header, 1, sizeof header, in), sizeof header);
    fclose(in);
    assert_int_equal(header[HB_RAW_HEADER_BYTES - 1], 0); /* NUL-padded */
    memcpy(text, header + 64, HB_RAW_HEADER_BYTES - 64);
}

/* Writes the 3 x 5 file into `dir`; its path goes to `path`. */
static void write_known_file(const char *dir, char *path, size_t size, int detail)
{
    hb_participant_samples samples[PARTICIPANTS];
    fill(samples, PARTICIPANTS, ROUNDS, detail);
    hb_raw_meta meta = test_meta();
    snprintf(path, size, "%s/128_256_4097.bin", dir);
    assert_int_equal(hb_raw_samples_write(path, &meta, NAMES, samples, PARTICIPANTS), HB_OK);
    free_samples(samples, PARTICIPANTS);
}

/* ---- tests -------------------------------------------------------------- */

static void test_header_round_trip(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("hb-raw", dir, sizeof dir);
    write_known_file(dir, path, sizeof path, 1);
    assert_int_equal(hb_test_count_entries(dir), 1); /* its temporary renamed into place: nothing beside it */

    hb_raw_header h;
    assert_int_equal(hb_raw_samples_read_header(path, &h), HB_OK);
    assert_int_equal(h.header_bytes, 4096);
    assert_int_equal(h.record_bytes, 24);
    assert_int_equal(h.participants, PARTICIPANTS);
    assert_int_equal(h.rounds, ROUNDS);
    assert_int_equal(h.m, 128);
    assert_int_equal(h.n, 256);
    assert_int_equal(h.k, 4097);
    assert_string_equal(h.names[0], "candidate");
    assert_string_equal(h.names[1], "cublas-nn");
    assert_int_equal(strlen(h.names[2]), 63); /* cut to 63 characters */
    assert_memory_equal(h.names[2], LONG_NAME, 63);
    assert_string_equal(h.names[3], "");
    assert_string_equal(h.mode, "server");
    assert_string_equal(h.gap, "per-call");
    assert_string_equal(h.l2_policy, "flush");
    assert_true(h.mean_gap_ms == 0.5);

    /* the lines a plot script or a notebook reads */
    char text[HB_RAW_HEADER_BYTES];
    read_header_text(path, text);
    assert_memory_equal(text, "format=hgemm-bench-raw/1\n", 25);
    assert_non_null(strstr(text, "\nseed=12345678901234\n"));
    assert_non_null(strstr(text, "\ntimer_note=cudaEvent pair second line\n")); /* newline kept off the line */
    assert_non_null(strstr(text, "\nparticipant1=cublas-nn\n"));
    assert_non_null(strstr(text, "\ncolumns=round,participant,slot,start_s,event_us,wall_us,gap_us\n"));
    hb_test_remove_tree(dir);
}

/* Writes the known file (with or without the detail vectors), checks its
 * size and returns it open at the first record. */
static FILE *write_and_open_records(char *dir, size_t dir_size, char *path, size_t path_size, int detail)
{
    hb_test_make_temp_dir("hb-raw", dir, dir_size);
    write_known_file(dir, path, path_size, detail);
    assert_int_equal(file_size(path), 4096 + 24 * PARTICIPANTS * ROUNDS);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    assert_int_equal(fseek(in, HB_RAW_HEADER_BYTES, SEEK_SET), 0);
    return in;
}

static void test_records_round_trip(void **state)
{
    (void)state;
    char dir[512], path[600];
    FILE *in = write_and_open_records(dir, sizeof dir, path, sizeof path, 1);
    for (size_t r = 0; r < ROUNDS; r++)
        for (size_t p = 0; p < PARTICIPANTS; p++) { /* round-major */
            unsigned char bytes[24];
            assert_int_equal(fread(bytes, 1, sizeof bytes, in), sizeof bytes);
            decoded_record d = decode(bytes);
            assert_int_equal(d.round, r);
            assert_int_equal(d.participant, p);
            assert_int_equal(d.slot, (uint16_t)slot_of(p, r));
            CLOSE_F32(d.start_s, start_s(p, r));
            CLOSE_F32(d.event_us, 1e3 * event_ms(p, r)); /* ms -> us */
            CLOSE_F32(d.wall_us, 1e3 * wall_ms(p, r));
            CLOSE_F32(d.gap_us, 1e3 * gap_ms(p, r));
        }
    unsigned char extra;
    assert_int_equal(fread(&extra, 1, 1, in), 0); /* nothing after the last record */
    fclose(in);
    hb_test_remove_tree(dir);
}

static void test_empty_detail(void **state)
{
    (void)state;
    char dir[512], path[600];
    FILE *in = write_and_open_records(dir, sizeof dir, path, sizeof path, 0);
    for (size_t i = 0; i < PARTICIPANTS * ROUNDS; i++) {
        unsigned char bytes[24];
        assert_int_equal(fread(bytes, 1, sizeof bytes, in), sizeof bytes);
        decoded_record d = decode(bytes);
        assert_int_equal(d.slot, 0xFFFF);
        assert_true(isnan(d.start_s));
        assert_true(d.gap_us == 0.0f);
        CLOSE_F32(d.event_us, 1e3 * event_ms(i % PARTICIPANTS, i / PARTICIPANTS)); /* times still there */
    }
    fclose(in);
    hb_test_remove_tree(dir);
}

static void test_bad_files_rejected(void **state)
{
    (void)state;
    char dir[512], path[600], short_path[600], missing[600];
    hb_test_make_temp_dir("hb-raw", dir, sizeof dir);
    write_known_file(dir, path, sizeof path, 1);
    hb_raw_header h;
    /* one byte of the magic changed */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fputc('X', f), 'X');
    assert_int_equal(fclose(f), 0);
    assert_int_equal(hb_raw_samples_read_header(path, &h), HB_ERR_BAD_INPUT);
    /* the right magic, but cut inside the header */
    snprintf(short_path, sizeof short_path, "%s/short.bin", dir);
    f = fopen(short_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(HB_RAW_MAGIC "\x00\x10\x00\x00", 12, 1, f), 1);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(hb_raw_samples_read_header(short_path, &h), HB_ERR_BAD_INPUT);
    /* no file at all */
    snprintf(missing, sizeof missing, "%s/missing.bin", dir);
    assert_int_equal(hb_raw_samples_read_header(missing, &h), HB_ERR_IO);
    hb_test_remove_tree(dir);
}

static void test_unwritable_path(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("hb-raw", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/no-such-folder/x.bin", dir);
    hb_participant_samples samples[PARTICIPANTS];
    fill(samples, PARTICIPANTS, ROUNDS, 1);
    hb_raw_meta meta = test_meta();
    assert_int_equal(hb_raw_samples_write(path, &meta, NAMES, samples, PARTICIPANTS), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), "no-such-folder/x.bin")); /* names the path */
    assert_non_null(strstr(hb_last_error(), "No such file or directory"));
    free_samples(samples, PARTICIPANTS);
    hb_test_remove_tree(dir);
}

static void test_bad_shapes_rejected(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("hb-raw", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/x.bin", dir);
    enum { TOO_MANY = HB_RAW_MAX_PARTICIPANTS + 1 };
    hb_participant_samples samples[TOO_MANY];
    const char *names[TOO_MANY];
    for (size_t i = 0; i < TOO_MANY; i++)
        names[i] = "p";
    fill(samples, TOO_MANY, 2, 1);
    hb_raw_meta meta = test_meta();
    assert_int_equal(hb_raw_samples_write(path, &meta, names, samples, TOO_MANY), HB_ERR_INTERNAL);
    assert_false(file_exists(path));
    /* 16 is the limit, and it fits */
    assert_int_equal(hb_raw_samples_write(path, &meta, names, samples, HB_RAW_MAX_PARTICIPANTS), HB_OK);
    /* a participant one round short */
    samples[1].wall_ms.len--;
    assert_int_equal(hb_raw_samples_write(path, &meta, names, samples, 2), HB_ERR_INTERNAL);
    samples[1].wall_ms.len++;
    /* a header text over 4032 bytes */
    char note[5000];
    memset(note, 'x', sizeof note - 1);
    note[sizeof note - 1] = '\0';
    meta.timer_note = note;
    assert_int_equal(hb_raw_samples_write(path, &meta, names, samples, 2), HB_ERR_INTERNAL);
    free_samples(samples, TOO_MANY);
    hb_test_remove_tree(dir);
}

static int png_ok(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return 0;
    unsigned char signature[8] = {0};
    size_t got = fread(signature, 1, sizeof signature, in);
    fclose(in);
    return got == 8 && memcmp(signature, "\x89PNG\r\n\x1a\n", 8) == 0;
}

/* Needs gnuplot; run from the repository root, as `make test` does. */
static void test_plot_raw_script(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    char dir[512], path[600], png[640], command[2200];
    hb_test_make_temp_dir("hb-raw", dir, sizeof dir);
    write_known_file(dir, path, sizeof path, 1);
    snprintf(png, sizeof png, "%s/raw.png", dir);
    snprintf(command, sizeof command, "plots/plot_raw.sh '%s' '%s' >'%s/plot.log' 2>&1", path, png, dir);
    int rc = system(command);
    if (rc != 0) {
        snprintf(command, sizeof command, "cat '%s/plot.log'", dir);
        (void)system(command);
    }
    assert_int_equal(rc, 0);
    assert_true(file_size(png) > 0);
    assert_true(png_ok(png));
    hb_test_remove_tree(dir);
}

/* A raw file of a folder from elsewhere whose name would close gnuplot's
 * quotes and run commands (system(), a backquote): plots/plot_raw.sh,
 * started in the file's folder, draws it and runs nothing there.  The name
 * reaches the script through the environment, past this test's own shell
 * quoting. */
static void test_plot_raw_script_takes_a_hostile_name_as_data(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    char dir[512], path[600], hostile[700], canary[600], repo[512], command[1200];
    hb_test_make_temp_dir("hb-raw", dir, sizeof dir);
    assert_non_null(getcwd(repo, sizeof repo)); /* the repository root, as `make test` runs the tests */
    write_known_file(dir, path, sizeof path, 1);
    snprintf(canary, sizeof canary, "%.500s/CANARY", dir);
    snprintf(hostile, sizeof hostile, "%.500s/x'; system(\"touch CANARY\"); y='`touch CANARY` \"@x.bin", dir);
    assert_int_equal(rename(path, hostile), 0);
    assert_int_equal(setenv("HB_TEST_RAW_FILE", hostile, 1), 0);
    snprintf(command, sizeof command, "cd '%.500s' && '%.500s/plots/plot_raw.sh' \"$HB_TEST_RAW_FILE\" > plot.log 2>&1",
             dir, repo);
    int rc = system(command);
    unsetenv("HB_TEST_RAW_FILE");
    assert_int_equal(rc, 0);
    assert_false(file_exists(canary));
    snprintf(hostile + strlen(hostile) - strlen(".bin"), 8, ".png"); /* beside it, as plot_raw.sh names it */
    assert_true(png_ok(hostile));
    hb_test_remove_tree(dir);
}

static const struct CMUnitTest raw_samples_tests[] = {
    cmocka_unit_test(test_header_round_trip),  cmocka_unit_test(test_records_round_trip),
    cmocka_unit_test(test_empty_detail),       cmocka_unit_test(test_bad_files_rejected),
    cmocka_unit_test(test_unwritable_path),    cmocka_unit_test(test_bad_shapes_rejected),
    cmocka_unit_test(test_plot_raw_script),    cmocka_unit_test(test_plot_raw_script_takes_a_hostile_name_as_data),
};

hb_test_list hb_raw_samples_tests(void) { return HB_TEST_LIST(raw_samples_tests); }
