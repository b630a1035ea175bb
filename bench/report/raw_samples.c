#include "bench/report/raw_samples.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/out_file.h"

/* Records go to disk as the in-memory struct, so the host must already be
 * little-endian with IEEE binary32 floats (x86-64 and aarch64 Linux are). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "raw_samples.c writes records in host byte order; the format is little-endian"
#endif
_Static_assert(sizeof(float) == 4, "the format stores float32");

/* One sample; the field order leaves no padding, so this IS the 24-byte
 * on-disk record (checked below). */
typedef struct hb_raw_record {
    uint32_t round;
    uint16_t participant;
    uint16_t slot;   /* 0xFFFF: not recorded */
    float start_s;   /* seconds since the timed window began; NaN: not recorded */
    float event_us;  /* microseconds */
    float wall_us;   /* microseconds */
    float gap_us;    /* microseconds */
} hb_raw_record;
_Static_assert(sizeof(hb_raw_record) == HB_RAW_RECORD_BYTES, "record must be 24 bytes, unpadded");
_Static_assert(offsetof(hb_raw_record, start_s) == 8 && offsetof(hb_raw_record, gap_us) == 20,
               "record fields must sit at the documented offsets");
_Static_assert(HB_RAW_MAX_PARTICIPANTS >= HB_MAX_PARTICIPANTS, "a raw file must hold every participant");

#define SLOT_NONE 0xFFFFu
#define TEXT_OFFSET 64 /* the key=value lines start here */
#define FORMAT_NAME "hgemm-bench-raw/1"
#define MAGIC_BYTES 8

/* ---- binary header fields ------------------------------------------------ */

static void put_u32(unsigned char *at, uint32_t value)
{
    for (int i = 0; i < 4; i++)
        at[i] = (unsigned char)(value >> (8 * i));
}

static void put_u64(unsigned char *at, uint64_t value)
{
    for (int i = 0; i < 8; i++)
        at[i] = (unsigned char)(value >> (8 * i));
}

static uint32_t get_u32(const unsigned char *at)
{
    uint32_t value = 0;
    for (int i = 0; i < 4; i++)
        value |= (uint32_t)at[i] << (8 * i);
    return value;
}

static uint64_t get_u64(const unsigned char *at)
{
    uint64_t value = 0;
    for (int i = 0; i < 8; i++)
        value |= (uint64_t)at[i] << (8 * i);
    return value;
}

static void encode_binary_fields(unsigned char *header, size_t participants, size_t rounds, const hb_raw_meta *meta)
{
    memcpy(header, HB_RAW_MAGIC, MAGIC_BYTES);
    put_u32(header + 8, HB_RAW_HEADER_BYTES);
    put_u32(header + 12, HB_RAW_RECORD_BYTES);
    put_u32(header + 16, (uint32_t)participants);
    put_u32(header + 20, 0); /* reserved */
    put_u64(header + 24, rounds);
    put_u64(header + 32, (uint64_t)(int64_t)meta->m); /* two's complement int64 */
    put_u64(header + 40, (uint64_t)(int64_t)meta->n);
    put_u64(header + 48, (uint64_t)(int64_t)meta->k);
}

/* ---- key=value text ------------------------------------------------------ */

/* The text area of the header; `overflow` is set instead of writing past it. */
typedef struct text_area {
    char *data;
    size_t cap; /* bytes available, keeping one NUL at the end */
    size_t len;
    int overflow;
} text_area;

static void append_char(text_area *text, char c)
{
    if (text->len >= text->cap) {
        text->overflow = 1;
        return;
    }
    text->data[text->len++] = c;
}

/* "key=value\n"; a control character in the value would end the line early,
 * so it becomes a space.  At most `max_value` bytes of the value are kept. */
static void append_line_cut(text_area *text, const char *key, const char *value, size_t max_value)
{
    for (const char *c = key; *c; c++)
        append_char(text, *c);
    append_char(text, '=');
    for (size_t i = 0; value && value[i] && i < max_value; i++)
        append_char(text, (unsigned char)value[i] < 0x20 || value[i] == 0x7f ? ' ' : value[i]);
    append_char(text, '\n');
}

static void append_line(text_area *text, const char *key, const char *value)
{
    append_line_cut(text, key, value, SIZE_MAX);
}

static void append_number(text_area *text, const char *key, const char *format, double value)
{
    char number[64];
    snprintf(number, sizeof number, format, value);
    append_line(text, key, number);
}

static void append_integer(text_area *text, const char *key, long long value)
{
    char number[32];
    snprintf(number, sizeof number, "%lld", value);
    append_line(text, key, number);
}

static hb_status encode_text(unsigned char *header, const hb_raw_meta *meta, const char *const *names,
                             size_t participants)
{
    text_area text = {(char *)header + TEXT_OFFSET, HB_RAW_HEADER_BYTES - TEXT_OFFSET - 1, 0, 0};
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", meta->seed);
    append_line(&text, "format", FORMAT_NAME);
    append_line(&text, "mode", meta->mode);
    append_line(&text, "gap", meta->gap);
    append_number(&text, "mean_gap_ms", "%.17g", meta->mean_gap_ms);
    append_line(&text, "l2_policy", meta->l2_policy);
    append_line(&text, "seed", seed);
    append_integer(&text, "m", meta->m);
    append_integer(&text, "n", meta->n);
    append_integer(&text, "k", meta->k);
    append_line(&text, "timer_note", meta->timer_note);
    for (size_t i = 0; i < participants; i++) {
        char key[32];
        snprintf(key, sizeof key, "participant%zu", i);
        append_line_cut(&text, key, names[i], HB_RAW_NAME_BYTES - 1);
    }
    append_line(&text, "columns", "round,participant,slot,start_s,event_us,wall_us,gap_us");
    if (text.overflow)
        return hb_fail(HB_ERR_INTERNAL,
                       "the raw samples header text does not fit in its %d bytes; shorten the timer note",
                       HB_RAW_HEADER_BYTES - TEXT_OFFSET - 1);
    return HB_OK;
}

/* ---- records --------------------------------------------------------------- */

/* Every participant has `rounds` samples; detail vectors are full or empty. */
static hb_status check_shape(const hb_participant_samples *samples, size_t participants, size_t *rounds)
{
    if (participants == 0 || participants > HB_RAW_MAX_PARTICIPANTS)
        return hb_fail(HB_ERR_INTERNAL, "raw samples: %zu participants; a raw file holds 1 to %d", participants,
                       HB_RAW_MAX_PARTICIPANTS);
    *rounds = samples[0].event_ms.len;
    if (*rounds > UINT32_MAX)
        return hb_fail(HB_ERR_INTERNAL, "raw samples: %zu rounds do not fit the uint32 round field", *rounds);
    for (size_t i = 0; i < participants; i++) {
        const hb_participant_samples *s = &samples[i];
        int detail_ok = (s->slot.len == 0 || s->slot.len == *rounds) &&
                        (s->start_s.len == 0 || s->start_s.len == *rounds) &&
                        (s->gap_ms.len == 0 || s->gap_ms.len == *rounds);
        if (s->event_ms.len != *rounds || s->wall_ms.len != *rounds || !detail_ok)
            return hb_fail(HB_ERR_INTERNAL, "raw samples: participant %zu has %zu event and %zu wall samples, "
                           "participant 0 has %zu rounds (a harness bug: every round times every participant)",
                           i, s->event_ms.len, s->wall_ms.len, *rounds);
    }
    return HB_OK;
}

static uint16_t slot_field(const hb_sample_vec *slot, size_t round)
{
    if (slot->len == 0)
        return SLOT_NONE;
    double value = slot->data[round];
    /* NaN fails both comparisons and is "not recorded" too. */
    return value >= 0 && value < SLOT_NONE ? (uint16_t)value : SLOT_NONE;
}

static hb_raw_record make_record(const hb_participant_samples *s, size_t round, size_t participant)
{
    const double us_per_ms = 1e3;
    hb_raw_record record = {
        .round = (uint32_t)round,
        .participant = (uint16_t)participant,
        .slot = slot_field(&s->slot, round),
        .start_s = s->start_s.len ? (float)s->start_s.data[round] : NAN,
        .event_us = (float)(s->event_ms.data[round] * us_per_ms),
        .wall_us = (float)(s->wall_ms.data[round] * us_per_ms),
        .gap_us = s->gap_ms.len ? (float)(s->gap_ms.data[round] * us_per_ms) : 0.0f,
    };
    return record;
}

/* ---- the file -------------------------------------------------------------- */

/* Writes header and records to an open stream; 0 on success, with errno set otherwise. */
static int write_stream(FILE *out, const unsigned char *header, const hb_participant_samples *samples,
                        size_t participants, size_t rounds)
{
    if (fwrite(header, HB_RAW_HEADER_BYTES, 1, out) != 1)
        return -1;
    for (size_t round = 0; round < rounds; round++)
        for (size_t p = 0; p < participants; p++) {
            hb_raw_record record = make_record(&samples[p], round, p);
            if (fwrite(&record, sizeof record, 1, out) != 1)
                return -1;
        }
    return 0;
}

hb_status hb_raw_samples_write(const char *path, const hb_raw_meta *meta, const char *const *names,
                               const hb_participant_samples *samples, size_t participants)
{
    size_t rounds = 0;
    HB_TRY(check_shape(samples, participants, &rounds));
    unsigned char header[HB_RAW_HEADER_BYTES] = {0}; /* zeros: reserved bytes and NUL padding */
    encode_binary_fields(header, participants, rounds, meta);
    HB_TRY(encode_text(header, meta, names, participants));
    hb_out_file out;
    HB_TRY(hb_out_file_begin(&out, path));
    /* A large buffer: millions of 24-byte records, one write() per MiB. */
    setvbuf(out.stream, NULL, _IOFBF, 1 << 20);
    if (write_stream(out.stream, header, samples, participants, rounds) != 0) {
        int error = errno;
        hb_out_file_abandon(&out);
        return hb_fail(HB_ERR_IO, "cannot write %s: %s (is the disk full?)", path, strerror(error));
    }
    return hb_out_file_commit(&out);
}

/* ---- reading the header back ------------------------------------------------- */

static void copy_cut(char *to, size_t size, const char *from)
{
    snprintf(to, size, "%s", from);
}

/* One "key=value" line (NUL-terminated, without its newline). */
static void parse_line(char *line, hb_raw_header *out)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return;
    *eq = '\0';
    const char *key = line, *value = eq + 1;
    if (strcmp(key, "mode") == 0)
        copy_cut(out->mode, sizeof out->mode, value);
    else if (strcmp(key, "gap") == 0)
        copy_cut(out->gap, sizeof out->gap, value);
    else if (strcmp(key, "l2_policy") == 0)
        copy_cut(out->l2_policy, sizeof out->l2_policy, value);
    else if (strcmp(key, "mean_gap_ms") == 0)
        out->mean_gap_ms = strtod(value, NULL);
    else if (strncmp(key, "participant", 11) == 0 && key[11] >= '0' && key[11] <= '9') {
        char *end;
        unsigned long index = strtoul(key + 11, &end, 10);
        if (*end == '\0' && index < out->participants)
            copy_cut(out->names[index], sizeof out->names[index], value);
    }
    /* other keys (format, seed, m, n, k, timer_note, columns, later additions) are not kept */
}

static void parse_text(unsigned char *header, hb_raw_header *out)
{
    header[HB_RAW_HEADER_BYTES - 1] = '\0'; /* the writer leaves a NUL here; a foreign file may not */
    char *line = (char *)header + TEXT_OFFSET;
    while (*line) {
        char *newline = strchr(line, '\n');
        if (newline)
            *newline = '\0';
        parse_line(line, out);
        if (!newline)
            break;
        line = newline + 1;
    }
}

/* The fields after the magic, which the caller has checked. */
static hb_status decode_binary_fields(const char *path, const unsigned char *header, hb_raw_header *out)
{
    out->header_bytes = get_u32(header + 8);
    out->record_bytes = get_u32(header + 12);
    out->participants = get_u32(header + 16);
    out->rounds = get_u64(header + 24);
    out->m = (long)(int64_t)get_u64(header + 32);
    out->n = (long)(int64_t)get_u64(header + 40);
    out->k = (long)(int64_t)get_u64(header + 48);
    if (out->header_bytes != HB_RAW_HEADER_BYTES || out->record_bytes != HB_RAW_RECORD_BYTES)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: header of %u bytes and records of %u bytes; this build reads %d and %d "
                       "(written by another version of hgemm-bench?)",
                       path, out->header_bytes, out->record_bytes, HB_RAW_HEADER_BYTES, HB_RAW_RECORD_BYTES);
    if (out->participants > HB_RAW_MAX_PARTICIPANTS)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: %u participants; a raw file holds at most %d (corrupt file?)", path,
                       out->participants, HB_RAW_MAX_PARTICIPANTS);
    return HB_OK;
}

hb_status hb_raw_samples_read_header(const char *path, hb_raw_header *out)
{
    memset(out, 0, sizeof *out);
    FILE *in = fopen(path, "rb");
    if (!in)
        return hb_fail(HB_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    unsigned char header[HB_RAW_HEADER_BYTES];
    size_t got = fread(header, 1, sizeof header, in);
    int read_error = ferror(in);
    int saved_errno = errno;
    fclose(in);
    if (read_error)
        return hb_fail(HB_ERR_IO, "cannot read %s: %s", path, strerror(saved_errno));
    if (got < MAGIC_BYTES || memcmp(header, HB_RAW_MAGIC, MAGIC_BYTES) != 0)
        return hb_fail(HB_ERR_BAD_INPUT, "%s is not an hgemm-bench raw samples file (no HBRAW01 magic)", path);
    if (got < sizeof header)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: %zu bytes, shorter than the %d-byte header (truncated file?)", path, got,
                       HB_RAW_HEADER_BYTES);
    HB_TRY(decode_binary_fields(path, header, out));
    parse_text(header, out);
    return HB_OK;
}
