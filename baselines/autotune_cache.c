#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* flock(): BSD, not POSIX */
#include "baselines/autotune_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/core/folders.h"
#include "bench/core/out_file.h"

#define CACHE_FORMAT 1
#define HEADER_PREFIX "# hgemm-bench cuBLASLt autotune cache, format "
#define HEADER_REST                                                                                                   \
    ". One line per key; tab-separated; the last field is a checksum of the others. Edit at your own risk: a line " \
    "whose checksum does not match is ignored."
#define CACHE_FILE_NAME "cublaslt-autotune.tsv"
#define PATH_BYTES 4096
#define LINE_BYTES 1024 /* a formatted line is at most about 820 bytes */
#define ALGO_WORDS 8
#define HEX_DIGITS 16                                        /* of one uint64 word */
#define ALGO_DATA_CHARS (ALGO_WORDS * (HEX_DIGITS + 1) - 1) /* words joined by ':' */

/* --- the columns ---------------------------------------------------------------- */

/* One table drives the header, the writer, the parser and the store's checks, so
 * they cannot disagree on the order or the type of a column. */
typedef enum column_kind { TEXT, LONG, INT, U64, DOUBLE, ALGO } column_kind;

typedef struct column {
    const char *name;
    column_kind kind;
    size_t offset; /* in hb_autotune_entry */
    size_t size;   /* of the member, bytes: the capacity of a TEXT column */
} column;

#define MEMBER_SIZE(member) sizeof(((hb_autotune_entry *)0)->member)
#define COLUMN(name, kind, member) {name, kind, offsetof(hb_autotune_entry, member), MEMBER_SIZE(member)}

static const column COLUMNS[] = {
    COLUMN("gpu_name", TEXT, key.gpu_name),
    COLUMN("gpu_id", TEXT, key.gpu_id),
    COLUMN("driver", TEXT, key.driver),
    COLUMN("cublaslt_version", LONG, key.cublaslt_version),
    COLUMN("acc", TEXT, key.acc),
    COLUMN("layout", TEXT, key.layout),
    COLUMN("workspace_bytes", U64, key.workspace_bytes),
    COLUMN("m", LONG, key.m),
    COLUMN("n", LONG, key.n),
    COLUMN("k", LONG, key.k),
    COLUMN("algo_text", TEXT, algo_text),
    COLUMN("median_us", DOUBLE, median_us),
    COLUMN("candidates", INT, candidates),
    COLUMN("search_s", DOUBLE, search_s),
    COLUMN("created", TEXT, created),
    COLUMN("algo_data", ALGO, algo),
};
#define COLUMN_COUNT (sizeof COLUMNS / sizeof COLUMNS[0])
#define FIELD_COUNT (COLUMN_COUNT + 1) /* the columns, then the checksum */

static uint64_t fnv1a(const char *bytes, size_t length)
{
    uint64_t hash = 0xcbf29ce484222325u; /* FNV-1a 64-bit offset basis and prime */
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)bytes[i];
        hash *= 0x100000001b3u;
    }
    return hash;
}

/* --- writing a line ----------------------------------------------------------- */

/* "w0:w1:...:w7", each word as 16 lower-case hex digits. */
static void format_algo(const uint64_t *words, char out[ALGO_DATA_CHARS + 1])
{
    for (int i = 0; i < ALGO_WORDS; i++)
        snprintf(out + i * (HEX_DIGITS + 1), HEX_DIGITS + 2, "%016" PRIx64 "%s", words[i],
                 i + 1 < ALGO_WORDS ? ":" : "");
}

/* snprintf's contract: the length the value needs, or < 0. */
static int format_value(const column *c, const hb_autotune_entry *e, char *out, size_t size)
{
    const char *member = (const char *)e + c->offset;
    char algo[ALGO_DATA_CHARS + 1];
    switch (c->kind) {
    case TEXT:
        return snprintf(out, size, "%s", member);
    case LONG:
        return snprintf(out, size, "%ld", *(const long *)member);
    case INT:
        return snprintf(out, size, "%d", *(const int *)member);
    case U64:
        return snprintf(out, size, "%" PRIu64, *(const uint64_t *)member);
    case DOUBLE:
        return snprintf(out, size, "%.17g", *(const double *)member);
    case ALGO:
        break;
    }
    format_algo((const uint64_t *)member, algo);
    return snprintf(out, size, "%s", algo);
}

/* The entry's line, without its '\n', checksum included. */
static hb_status format_entry(const hb_autotune_entry *e, char *line, size_t size)
{
    size_t used = 0;
    for (size_t i = 0; i < COLUMN_COUNT; i++) {
        int n = format_value(&COLUMNS[i], e, line + used, size - used);
        if (n < 0 || (size_t)n + 1 >= size - used)
            return hb_fail(HB_ERR_INTERNAL, "autotune cache: the line of %s does not fit in %zu bytes", e->algo_text,
                           size);
        used += (size_t)n;
        line[used++] = '\t';
    }
    int n = snprintf(line + used, size - used, "%016" PRIx64, fnv1a(line, used - 1));
    if (n < 0 || (size_t)n >= size - used)
        return hb_fail(HB_ERR_INTERNAL, "autotune cache: the line of %s does not fit in %zu bytes", e->algo_text, size);
    return HB_OK;
}

/* A tab or newline would split the field or the line; a missing NUL is a caller bug. */
static hb_status check_text_fields(const hb_autotune_entry *e)
{
    for (size_t i = 0; i < COLUMN_COUNT; i++) {
        if (COLUMNS[i].kind != TEXT)
            continue;
        const char *text = (const char *)e + COLUMNS[i].offset;
        if (!memchr(text, '\0', COLUMNS[i].size))
            return hb_fail(HB_ERR_INTERNAL, "autotune cache entry: field %s has no terminating NUL in its %zu bytes",
                           COLUMNS[i].name, COLUMNS[i].size);
        if (strpbrk(text, "\t\n"))
            return hb_fail(HB_ERR_INTERNAL,
                           "autotune cache entry: field %s contains a tab or newline, which separate the cache's "
                           "fields and lines",
                           COLUMNS[i].name);
    }
    return HB_OK;
}

/* --- parsing a line ----------------------------------------------------------- */

typedef struct field {
    const char *text; /* not NUL-terminated */
    size_t length;
} field;

/* Splits at tabs; returns the number of fields, counting on past `max`. */
static size_t split_fields(const char *line, size_t length, field *fields, size_t max)
{
    size_t count = 0;
    const char *start = line, *end = line + length;
    for (;;) {
        const char *tab = memchr(start, '\t', (size_t)(end - start));
        const char *stop = tab ? tab : end;
        if (count < max)
            fields[count] = (field){start, (size_t)(stop - start)};
        count++;
        if (!tab)
            return count;
        start = tab + 1;
    }
}

/* Exactly 16 lower-case hex digits, as the writer makes them. */
static int parse_hex_word(const char *text, uint64_t *value)
{
    uint64_t v = 0;
    for (int i = 0; i < HEX_DIGITS; i++) {
        char c = text[i];
        if (c >= '0' && c <= '9')
            v = v << 4 | (uint64_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v = v << 4 | (uint64_t)(c - 'a' + 10);
        else
            return 0;
    }
    *value = v;
    return 1;
}

static int parse_algo(field f, uint64_t *words)
{
    if (f.length != ALGO_DATA_CHARS)
        return 0;
    for (int i = 0; i < ALGO_WORDS; i++) {
        const char *word = f.text + i * (HEX_DIGITS + 1);
        if ((i > 0 && word[-1] != ':') || !parse_hex_word(word, &words[i]))
            return 0;
    }
    return 1;
}

/* The whole field must be the number: strto* need a C string to stop at. */
static int parse_number(const column *c, field f, char *member)
{
    char text[40]; /* the longest the writer makes is a %.17g double, 24 bytes */
    if (f.length == 0 || f.length >= sizeof text)
        return 0;
    memcpy(text, f.text, f.length);
    text[f.length] = '\0';
    char *end;
    errno = 0;
    switch (c->kind) {
    case LONG:
        *(long *)member = strtol(text, &end, 10);
        break;
    case INT: {
        long v = strtol(text, &end, 10);
        if (v < INT_MIN || v > INT_MAX)
            return 0;
        *(int *)member = (int)v;
        break;
    }
    case U64:
        if (text[0] == '-') /* strtoull would wrap it around */
            return 0;
        *(uint64_t *)member = strtoull(text, &end, 10);
        break;
    default: /* DOUBLE; the caller hands TEXT and ALGO elsewhere */
        *(double *)member = strtod(text, &end);
        break;
    }
    return *end == '\0' && errno != ERANGE;
}

static int parse_value(const column *c, field f, hb_autotune_entry *e)
{
    char *member = (char *)e + c->offset;
    if (c->kind == TEXT) {
        if (f.length >= c->size)
            return 0;
        memcpy(member, f.text, f.length);
        member[f.length] = '\0';
        return 1;
    }
    if (c->kind == ALGO)
        return parse_algo(f, (uint64_t *)member);
    return parse_number(c, f, member);
}

/* 1 and the entry if `line` (no '\n') is a valid entry line, else 0 and why not. */
static int parse_entry(const char *line, size_t length, hb_autotune_entry *e, char *why, size_t why_size)
{
    field fields[FIELD_COUNT];
    if (memchr(line, '\0', length)) {
        snprintf(why, why_size, "contains a NUL byte");
        return 0;
    }
    size_t count = split_fields(line, length, fields, FIELD_COUNT);
    if (count != FIELD_COUNT) {
        snprintf(why, why_size, "has %zu field%s, expected %zu", count, count == 1 ? "" : "s", (size_t)FIELD_COUNT);
        return 0;
    }
    field sum = fields[FIELD_COUNT - 1];
    uint64_t written;
    if (sum.length != HEX_DIGITS || !parse_hex_word(sum.text, &written)) {
        snprintf(why, why_size, "the checksum is not %d lower-case hex digits", HEX_DIGITS);
        return 0;
    }
    if (written != fnv1a(line, (size_t)(sum.text - line) - 1)) {
        snprintf(why, why_size, "checksum mismatch (the line was edited or damaged)");
        return 0;
    }
    memset(e, 0, sizeof *e);
    for (size_t i = 0; i < COLUMN_COUNT; i++) {
        if (!parse_value(&COLUMNS[i], fields[i], e)) {
            snprintf(why, why_size, "bad value in column %s", COLUMNS[i].name);
            return 0;
        }
    }
    return 1;
}

/* --- reading a file ----------------------------------------------------------- */

/* Called with each valid entry line of a file (`line` without its '\n'). */
typedef hb_status (*line_visitor)(void *context, const hb_autotune_entry *entry, const char *line);

typedef struct invalid_lines {
    long count;
    long first_line; /* 1-based */
    char first_why[128];
} invalid_lines;

/* A header comment sets the format of the lines after it; other comments keep it.
 * An unreadable number counts as format 0, which no build reads. */
static int declared_format(const char *comment, int format)
{
    size_t prefix = strlen(HEADER_PREFIX);
    if (strncmp(comment, HEADER_PREFIX, prefix) != 0)
        return format;
    char *end;
    long declared = strtol(comment + prefix, &end, 10);
    return end == comment + prefix || declared < 0 || declared > INT_MAX ? 0 : (int)declared;
}

/* One warning per file, not per line: a damaged file could hold thousands. */
static void warn_invalid(const char *path, const invalid_lines *invalid)
{
    if (invalid->count)
        hb_warn("%s:%ld: %s; the line is ignored, and dropped by the next store (%ld invalid line%s in this file)",
                path, invalid->first_line, invalid->first_why, invalid->count, invalid->count == 1 ? "" : "s");
}

/* A cache holds a line of about 200 bytes per (GPU, size, layout, class):
 * 256 MiB is millions of entries, no cache. */
#define AUTOTUNE_CACHE_MAX_BYTES ((size_t)256 << 20)

/* Calls `visit` with each valid entry line of `path`, in order; a missing file has none. */
static hb_status for_each_valid_line(const char *path, line_visitor visit, void *context)
{
    int fd;
    size_t size;
    /* a regular file only (a FIFO under its name would block the open: bench/core/input_file.h) */
    HB_TRY(hb_input_open(path, NULL, AUTOTUNE_CACHE_MAX_BYTES, HB_ERR_IO, 1, &fd, &size));
    if (fd < 0)
        return HB_OK; /* no cache yet */
    FILE *file = fdopen(fd, "r");
    if (!file) {
        int error = errno;
        close(fd);
        return hb_fail(HB_ERR_IO, "cannot read %s: %s", path, strerror(error));
    }
    invalid_lines invalid = {0};
    char *line = NULL;
    size_t capacity = 0;
    int format = CACHE_FORMAT; /* a file without a header is read as the current format */
    hb_status status = HB_OK;
    ssize_t length;
    int read_errno = 0;
    for (long number = 1; status == HB_OK; number++) {
        errno = 0;
        length = getline(&line, &capacity, file);
        if (length < 0) {
            read_errno = feof(file) ? 0 : errno ? errno : EIO;
            break;
        }
        if (length > 0 && line[length - 1] == '\n')
            line[--length] = '\0';
        if (length == 0)
            continue;
        if (line[0] == '#') {
            format = declared_format(line, format);
            continue;
        }
        hb_autotune_entry entry;
        char why[sizeof invalid.first_why];
        if (format != CACHE_FORMAT)
            snprintf(why, sizeof why, "follows a header of cache format %d; this build reads format %d", format,
                     CACHE_FORMAT);
        else if (parse_entry(line, (size_t)length, &entry, why, sizeof why)) {
            status = visit(context, &entry, line);
            continue;
        }
        if (invalid.count++ == 0) {
            invalid.first_line = number;
            memcpy(invalid.first_why, why, sizeof why);
        }
    }
    free(line);
    fclose(file); /* read-only: nothing to lose */
    if (status == HB_OK && read_errno)
        return hb_fail(HB_ERR_IO, "cannot read %s: %s", path, strerror(read_errno));
    warn_invalid(path, &invalid);
    return status;
}

/* --- lookup --------------------------------------------------------------------- */

typedef struct lookup_context {
    const hb_autotune_key *key;
    hb_autotune_entry *out;
    int *found;
} lookup_context;

static hb_status take_if_key_matches(void *context, const hb_autotune_entry *entry, const char *line)
{
    lookup_context *lookup = context;
    (void)line;
    if (hb_autotune_key_equal(&entry->key, lookup->key)) {
        *lookup->out = *entry;
        *lookup->found = 1;
    }
    return HB_OK;
}

hb_status hb_autotune_cache_lookup(const char *path, const hb_autotune_key *key, hb_autotune_entry *out, int *found)
{
    lookup_context lookup = {key, out, found};
    *found = 0;
    hb_status status = for_each_valid_line(path, take_if_key_matches, &lookup);
    if (status != HB_OK)
        *found = 0;
    return status;
}

/* --- store ---------------------------------------------------------------------- */

/* The folder holding `path` ("." for a bare name). */
static hb_status parent_folder(const char *path, char *folder, size_t size)
{
    const char *slash = strrchr(path, '/');
    int n = !slash ? snprintf(folder, size, ".")
            : slash == path ? snprintf(folder, size, "/")
                            : snprintf(folder, size, "%.*s", (int)(slash - path), path);
    if (n < 0 || (size_t)n >= size)
        return hb_fail(HB_ERR_IO, "autotune cache path is too long: %s", path);
    return HB_OK;
}

/* Blocks until this process is the only writer of `path`; close the fd to let go. */
static hb_status lock_cache(const char *path, int *fd)
{
    char lock[PATH_BYTES];
    if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock)
        return hb_fail(HB_ERR_IO, "autotune cache path is too long: %s", path);
    *fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (*fd < 0)
        return hb_fail(HB_ERR_IO, "cannot open lock file %s: %s", lock, strerror(errno));
    while (flock(*fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            int saved = errno;
            close(*fd);
            return hb_fail(HB_ERR_IO, "cannot lock %s: %s", lock, strerror(saved));
        }
    }
    return HB_OK;
}

typedef struct copy_context {
    FILE *out;
    const char *out_path;
    const hb_autotune_key *replaced;
} copy_context;

static hb_status copy_other_key(void *context, const hb_autotune_entry *entry, const char *line)
{
    copy_context *copy = context;
    if (hb_autotune_key_equal(&entry->key, copy->replaced))
        return HB_OK;
    if (fprintf(copy->out, "%s\n", line) < 0)
        return hb_fail(HB_ERR_IO, "cannot write %s: %s", copy->out_path, strerror(errno));
    return HB_OK;
}

static hb_status write_header(FILE *out, const char *out_path)
{
    int failed = fprintf(out, HEADER_PREFIX "%d" HEADER_REST "\n#", CACHE_FORMAT) < 0;
    for (size_t i = 0; i < COLUMN_COUNT; i++)
        failed |= fprintf(out, "%c%s", i ? '\t' : ' ', COLUMNS[i].name) < 0;
    failed |= fputs("\tchecksum\n", out) == EOF;
    return failed ? hb_fail(HB_ERR_IO, "cannot write %s: %s", out_path, strerror(errno)) : HB_OK;
}

/* The new file's whole content: the header, every other key's line, the new one. */
static hb_status write_new_file(const char *path, FILE *out, const char *out_path, const hb_autotune_entry *entry,
                                const char *line)
{
    copy_context copy = {out, out_path, &entry->key};
    HB_TRY(write_header(out, out_path));
    HB_TRY(for_each_valid_line(path, copy_other_key, &copy));
    if (fprintf(out, "%s\n", line) < 0)
        return hb_fail(HB_ERR_IO, "cannot write %s: %s", out_path, strerror(errno));
    return HB_OK;
}

/* Under the lock: old file + entry -> a fresh temporary beside it, renamed
 * over `path` once it is on disk (bench/core/out_file.h). */
static hb_status replace_file(const char *path, const hb_autotune_entry *entry, const char *line)
{
    hb_out_file out;
    HB_TRY(hb_out_file_begin(&out, path));
    hb_status status = write_new_file(path, out.stream, out.temp, entry, line);
    if (status != HB_OK) {
        hb_out_file_abandon(&out);
        return status;
    }
    return hb_out_file_commit(&out);
}

hb_status hb_autotune_cache_store(const char *path, const hb_autotune_entry *entry)
{
    char line[LINE_BYTES], folder[PATH_BYTES];
    int lock_fd = -1;
    HB_TRY(check_text_fields(entry));
    HB_TRY(format_entry(entry, line, sizeof line));
    HB_TRY(parent_folder(path, folder, sizeof folder));
    HB_TRY(hb_make_folders(folder, "autotune cache folder"));
    HB_TRY(lock_cache(path, &lock_fd));
    hb_status status = replace_file(path, entry, line);
    close(lock_fd); /* releases the flock */
    return status;
}

/* --- keys and paths ------------------------------------------------------------- */

void hb_autotune_key_make(const hb_device_info *device, hb_acc_class acc, hb_b_layout layout, uint64_t workspace_bytes,
                          long m, long n, long k, hb_autotune_key *key)
{
    memset(key, 0, sizeof *key);
    snprintf(key->gpu_name, sizeof key->gpu_name, "%.127s", device->name);
    snprintf(key->gpu_id, sizeof key->gpu_id, "%s", device->uuid[0] ? device->uuid : device->pci_bus_id);
    snprintf(key->driver, sizeof key->driver, "%.31s", device->driver);
    key->cublaslt_version = device->cublaslt_version;
    snprintf(key->acc, sizeof key->acc, "%s", hb_acc_class_name(acc));
    snprintf(key->layout, sizeof key->layout, "%s", layout == HB_B_COL ? "tn" : "nn");
    key->workspace_bytes = workspace_bytes;
    key->m = m;
    key->n = n;
    key->k = k;
}

int hb_autotune_key_equal(const hb_autotune_key *a, const hb_autotune_key *b)
{
    return strncmp(a->gpu_name, b->gpu_name, sizeof a->gpu_name) == 0 &&
           strncmp(a->gpu_id, b->gpu_id, sizeof a->gpu_id) == 0 &&
           strncmp(a->driver, b->driver, sizeof a->driver) == 0 && a->cublaslt_version == b->cublaslt_version &&
           strncmp(a->acc, b->acc, sizeof a->acc) == 0 && strncmp(a->layout, b->layout, sizeof a->layout) == 0 &&
           a->workspace_bytes == b->workspace_bytes && a->m == b->m && a->n == b->n && a->k == b->k;
}

hb_status hb_autotune_cache_default_path(char *out, size_t size)
{
    static const struct {
        const char *variable;
        const char *below; /* the folder under the variable's */
    } bases[] = {{"HGEMM_BENCH_CACHE_DIR", ""}, {"XDG_CACHE_HOME", "/hgemm-bench"}, {"HOME", "/.cache/hgemm-bench"}};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        const char *base = getenv(bases[i].variable);
        if (!base || !*base)
            continue;
        int n = snprintf(out, size, "%s%s/" CACHE_FILE_NAME, base, bases[i].below);
        if (n < 0 || (size_t)n >= size)
            return hb_fail(HB_ERR_IO, "the autotune cache path under $%s (%s) does not fit in %zu bytes",
                           bases[i].variable, base, size);
        return HB_OK;
    }
    return hb_fail(HB_ERR_IO, "no folder for the autotune cache: set HGEMM_BENCH_CACHE_DIR, XDG_CACHE_HOME or HOME");
}
