/* --raw: every timing sample of one configuration in a compact binary file,
 * for plots and offline analysis (docs/results.md, "Raw samples (--raw)").
 *
 * File layout, all integers and floats little-endian:
 *
 *   header, exactly HB_RAW_HEADER_BYTES (4096) bytes:
 *     offset  0  8 bytes   magic "HBRAW01\n"
 *     offset  8  uint32    header_bytes (4096)
 *     offset 12  uint32    record_bytes (24)
 *     offset 16  uint32    participants (1..16)
 *     offset 20  uint32    reserved, 0
 *     offset 24  uint64    rounds
 *     offset 32  int64     m
 *     offset 40  int64     n
 *     offset 48  int64     k
 *     offset 56  8 bytes   0
 *     offset 64  ASCII "key=value\n" lines, then NUL bytes up to 4096
 *                (at least one NUL, so the text is a C string):
 *                  format=hgemm-bench-raw/1
 *                  mode=offline|server
 *                  gap=per-call|per-round|none
 *                  mean_gap_ms=<ms, 0 offline>
 *                  l2_policy=warm|fresh|flush
 *                  seed=<unsigned decimal>
 *                  m=, n=, k=
 *                  timer_note=<free text, may be empty>
 *                  participant0=<name>, participant1=<name>, ...
 *                  columns=round,participant,slot,start_s,event_us,wall_us,gap_us
 *                Control characters in values become spaces; names are cut
 *                to 63 bytes.  Readers should ignore keys they do not know.
 *
 *   then rounds x participants records, round-major (round 0 participant 0,
 *   round 0 participant 1, ..., round 1 participant 0, ...), 24 bytes each:
 *     uint32   round
 *     uint16   participant   index into participant<i>= above
 *     uint16   slot          position in the round's shuffled order, 0-based;
 *                            0xFFFF when not recorded
 *     float32  start_s       seconds from the timed window's start to the
 *                            call's start; NaN when not recorded
 *     float32  event_us      CUDA-event time, microseconds
 *     float32  wall_us       host wall-clock time, microseconds
 *     float32  gap_us        idle gap slept just before the call, microseconds
 *                            (0 offline, or when not recorded)
 *
 * So the file is 4096 + 24 * rounds * participants bytes. */
#ifndef HB_RAW_SAMPLES_H
#define HB_RAW_SAMPLES_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/participant_desc.h"
#include "bench/result/window_samples.h"

#define HB_RAW_MAGIC "HBRAW01\n" /* 8 bytes */
#define HB_RAW_HEADER_BYTES 4096
#define HB_RAW_RECORD_BYTES 24
#define HB_RAW_MAX_PARTICIPANTS 16
#define HB_RAW_NAME_BYTES 64 /* 63 characters and the NUL */

/* What the configuration was, for the header. */
typedef struct hb_raw_meta {
    long m, n, k;
    const char *mode;       /* "offline" or "server" */
    const char *gap;        /* "per-call", "per-round" or "none" */
    double mean_gap_ms;     /* 0 offline */
    const char *l2_policy;  /* "warm", "fresh" or "flush" */
    const char *timer_note; /* free text, may be NULL */
    unsigned long long seed;
} hb_raw_meta;

/* Writes `participants` participants' samples (names[i] for samples[i]; every
 * participant must have the same number of rounds) to `path`, atomically
 * enough: to path + ".tmp", then renamed.  Empty slot / start_s / gap_ms
 * vectors are written as 0xFFFF / NaN / 0.  Errors: HB_ERR_IO with the path
 * and strerror; HB_ERR_INTERNAL for more than 16 participants or samples of
 * unequal lengths (a harness bug). */
hb_status hb_raw_samples_write(const char *path, const hb_raw_meta *meta, const char *const *names,
                               const hb_participant_samples *samples, size_t participants);

/* The header as read back; strings are NUL-terminated and cut to fit. */
typedef struct hb_raw_header {
    unsigned header_bytes, record_bytes, participants;
    unsigned long long rounds;
    long m, n, k;
    char names[16][64];
    char mode[16], gap[16], l2_policy[16];
    double mean_gap_ms;
} hb_raw_header;

/* For tests and tools.  HB_ERR_IO if the file cannot be opened or read;
 * HB_ERR_BAD_INPUT if it is not a raw samples file of this format (bad
 * magic, short header, other header or record size, too many participants). */
hb_status hb_raw_samples_read_header(const char *path, hb_raw_header *out);

#endif
