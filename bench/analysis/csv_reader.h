/* Reading a CSV file by column name (RFC 4180, through libcsv): the caller
 * names the columns it needs and gets each row's fields in that order,
 * wherever the file has them, so a file with more columns, or its columns in
 * another order, reads the same.  Anything that is not a whole table is bad
 * results (exit 11) with the file, line and column: a header that lacks a
 * needed column, a row with fewer or more fields than the header, a last
 * line without its newline (a file cut short), a broken quote.  A text cell
 * written after the formula guard's quote (bench/core/csv_text.h) is read
 * without it, so a harness's CSV reads back as the texts it wrote. */
#ifndef HB_CSV_READER_H
#define HB_CSV_READER_H

#include <stddef.h>

#include "bench/core/status.h"

/* One row, as the callback sees it. */
typedef struct hb_csv_row {
    const char *path;
    size_t line;              /* the line the row starts on, 1-based (the header is line 1) */
    const char *const *text;  /* text[i]: the field of wanted column i; NULL: an optional column the file lacks */
    const size_t *column;     /* column[i]: its 1-based position in the file, for messages (0: lacking) */
    const char *const *name;  /* name[i]: wanted column i's name (the spec's) */
} hb_csv_row;

typedef struct hb_csv_spec {
    const char *what;              /* what the file should be, for messages: "an hgemm-bench summary.csv" */
    const char *const *wanted;     /* the column names the rows are read for */
    size_t n_wanted;
    const unsigned char *optional; /* optional[i] = 1: a file without column i is fine; NULL: all are needed */
    int lenient_last_newline;      /* 1: a complete last row without '\n' is accepted (files of other tools) */
    int lenient_bom;               /* 1: a UTF-8 byte-order mark before the header is skipped (files of other tools) */
    size_t max_bytes;              /* the largest file the reader takes (0: HB_CSV_MAX_BYTES) */
    /* Called once with the whole header before any row; its error stops the
     * read.  NULL: any header with the wanted columns will do. */
    hb_status (*header)(void *context, const char *path, const char *const *names, size_t count);
    /* Called for each row; its error stops the read. */
    hb_status (*row)(void *context, const hb_csv_row *row);
    void *context;
} hb_csv_spec;

/* A CSV file read whole: summary.csv of the largest sweep is about 25 MiB. */
#define HB_CSV_MAX_BYTES ((size_t)1 << 30)

/* Reads `path` through `spec`.  HB_ERR_BAD_RESULTS (with a message naming
 * the place) for a malformed file (a NUL byte is one: CSV is text), or a
 * path that is missing, not a regular file, unreadable or over the spec's
 * size; or the callbacks' own error. */
hb_status hb_csv_read(const char *path, const hb_csv_spec *spec);

/* The same, over `length` bytes already read from `path` (a sweep's
 * summary.csv up to what its journal vouches for). */
hb_status hb_csv_read_text(const char *path, const char *text, size_t length, const hb_csv_spec *spec);

#endif
