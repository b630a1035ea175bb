#define _POSIX_C_SOURCE 200809L /* mkstemp, strdup */
#include "bench/import/sass_audit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/toolkit_program.h"
#include "bench/import/command_run.h"
#include "bench/import/content_hash.h"

#define CACHE_HEADER "hgemm-bench mma audit 1" /* the cache file's first line: its format */
#define AUDIT_TIMEOUT_S 300 /* cuobjdump on a large launcher library takes seconds */

int hb_cuobjdump_find(char *path, size_t size)
{
    return hb_toolkit_program_find("cuobjdump", "HB_CUOBJDUMP", path, size) == HB_PROGRAM_FOUND;
}

static int read_cache(const char *cache, const char *sha, hb_mma_audit *out)
{
    FILE *f = fopen(cache, "r");
    if (!f)
        return 0;
    char header[64] = "", line_sha[96] = "", cell[HB_MMA_CELL] = "";
    int ok = fgets(header, sizeof header, f) && fgets(line_sha, sizeof line_sha, f) && fgets(cell, sizeof cell, f);
    fclose(f);
    header[strcspn(header, "\n")] = line_sha[strcspn(line_sha, "\n")] = cell[strcspn(cell, "\n")] = '\0';
    return ok && !strcmp(header, CACHE_HEADER) && !strcmp(line_sha, sha) && hb_mma_audit_parse_cell(cell, out);
}

/* Best effort, written whole or not at all: a read-only folder only costs a second audit. */
static void write_cache(const char *cache, const char *sha, const hb_mma_audit *audit)
{
    char text[4096], cell[HB_MMA_CELL];
    hb_mma_audit_format(audit, cell, sizeof cell);
    int n = snprintf(text, sizeof text, "%s\n%s\n%s\n", CACHE_HEADER, sha, cell);
    if (n > 0 && (size_t)n < sizeof text)
        hb_out_file_write(cache, text, (size_t)n);
}

/* A private temporary file's path; 0 when none can be made. */
static int temp_file(char *path, size_t size, const char *what)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/hb-%s-XXXXXX", dir && *dir ? dir : "/tmp", what);
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

static void count_lines(const char *sass, hb_mma_audit *out)
{
    FILE *f = fopen(sass, "r");
    if (!f)
        return;
    char line[4096];
    while (fgets(line, sizeof line, f))
        hb_mma_audit_add_line(out, line);
    out->known = !ferror(f);
    fclose(f);
}

/* The first line cuobjdump wrote to the log after the command line
 * ("cuobjdump fatal   : Could not open input file ..."), trimmed; "" when none. */
static void first_said(const char *log, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(log, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (line[0] != '$' && line[strspn(line, " \t\r\n")]) {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(out, size, "%.250s", line);
            break;
        }
    fclose(f);
}

/* cuobjdump -sass `file` into out; a note when it could not be read. */
static void run_cuobjdump(const char *cuobjdump, const char *file, hb_mma_audit *out, char *note, size_t size)
{
    char sass[4200], log[4200];
    if (!temp_file(sass, sizeof sass, "sass") || !temp_file(log, sizeof log, "sass-log")) {
        snprintf(note, size, "no temporary file for cuobjdump's output: %s", strerror(errno));
        return;
    }
    char *argv[] = {(char *)cuobjdump, "-sass", (char *)file, NULL};
    hb_command_end end;
    if (hb_command_run(argv, NULL, sass, log, AUDIT_TIMEOUT_S, &end) == HB_OK && end.exited && end.code == 0) {
        count_lines(sass, out);
        if (!out->known)
            snprintf(note, size, "cannot read cuobjdump's output for %.400s", file);
    } else {
        char how[128], first[256];
        hb_command_end_text(&end, AUDIT_TIMEOUT_S, how, sizeof how);
        first_said(log, first, sizeof first);
        snprintf(note, size, "cuobjdump -sass %.200s: %.100s%s%.200s", file, how, first[0] ? ": " : "", first);
    }
    remove(sass);
    remove(log);
}

void hb_sass_audit_file(const char *file, const char *cache_dir, hb_mma_audit *out, char *note, size_t note_size)
{
    static int told; /* the note once per process: every file of a set would repeat it */
    char own_note[640] = "", cache[4400] = "", sha[HB_SHA256_HEX], cuobjdump[4096];
    memset(out, 0, sizeof *out);
    int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1); /* an unreadable file is the note's to say, once */
    hb_status hashed = hb_sha256_file_hex(file, sha);
    hb_diag_set_quiet(quiet);
    if (hashed == HB_OK && cache_dir)
        snprintf(cache, sizeof cache, "%.4000s/mma-%s.txt", cache_dir, sha);
    if (hashed != HB_OK)
        snprintf(own_note, sizeof own_note, "cannot read %.400s", file);
    else if (cache[0] && read_cache(cache, sha, out))
        ;
    else if (!hb_cuobjdump_find(cuobjdump, sizeof cuobjdump))
        snprintf(own_note, sizeof own_note, "no cuobjdump (looked at $HB_CUOBJDUMP, $CUDA_HOME/bin, "
                 "/usr/local/cuda/bin and PATH): install the CUDA Toolkit's cuobjdump or set HB_CUOBJDUMP");
    else {
        run_cuobjdump(cuobjdump, file, out, own_note, sizeof own_note);
        if (out->known && cache[0])
            write_cache(cache, sha, out);
    }
    if (note)
        snprintf(note, note_size, "%s", own_note);
    if (own_note[0] && !hb_diag_is_quiet() && !told++)
        fprintf(stderr, "hgemm-bench: note: the accumulator audit (mma_accumulators) is unknown: %s\n", own_note);
}
