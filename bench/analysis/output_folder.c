#define _GNU_SOURCE /* mkdtemp, O_NOFOLLOW, O_CLOEXEC */
#include "bench/analysis/output_folder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/file_digest.h"
#include "bench/core/folders.h"
#include "bench/core/input_file.h"
#include "bench/core/out_file.h"

/* A manifest is a few dozen lines; 1 MiB is no manifest of ours. */
#define MANIFEST_MAX_BYTES ((size_t)1 << 20)
#define MANIFEST_HEADER "# hgemm-bench output manifest: sha256 bytes name, one file a line, written last\n"
#define STAGE_SUFFIX_LENGTH 6 /* mkdtemp's XXXXXX */
/* Path buffers: DIR, DIR/.hgemm-OWNER-publishing, a file in it, a manifest set aside. */
#define FOLDER_ROOM (HB_OUTPUT_PATH_SIZE + 64)
#define FILE_ROOM (FOLDER_ROOM + 256)
#define ASIDE_ROOM (FILE_ROOM + 8)

/* --- names ---------------------------------------------------------------------------------------- */

/* The names an owner writes: a prefix and the extensions after it.  Only
 * such names are ever removed from DIR (and only with the bytes the
 * manifest recorded): a result folder's own files (summary.csv, env.json,
 * the journal) match none. */
static const struct {
    const char *owner, *prefix, *extensions; /* extensions: '|'-separated, each with its dot */
} owned_names[] = {
    {"report", "report", ".md|.json"},
    {"report", "report_", ".dat|.gp|.png|.svg|.txt"},
    {"report", "table", ".csv"},
    {"report", "speedup_", ".csv"},
    {"report", "excluded", ".csv"},
    {"report", "not_run", ".csv"},
    {"report", "timing_doubt", ".csv"},
    {"compare", "compare", ".md|.json"},
    {"compare", "compare_", ".csv|.dat|.gp|.png|.svg|.txt"},
};

static int plain_name(const char *name)
{
    if (!name[0] || name[0] == '.' || strlen(name) > 200)
        return 0;
    for (const char *c = name; *c; c++)
        if (!(*c == '_' || *c == '-' || *c == '.' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
              (*c >= 'A' && *c <= 'Z')))
            return 0;
    return 1;
}

static int has_extension(const char *rest, const char *extensions)
{
    const char *dot = strrchr(rest, '.');
    if (!dot)
        return 0;
    size_t n = strlen(dot);
    for (const char *e = extensions; *e;) {
        size_t length = strcspn(e, "|");
        if (length == n && !strncmp(e, dot, n))
            return 1;
        e += length + (e[length] == '|');
    }
    return 0;
}

/* 1 if `owner` writes files named `name`. */
static int owner_writes(const char *owner, const char *name)
{
    if (!plain_name(name))
        return 0;
    for (size_t i = 0; i < sizeof owned_names / sizeof owned_names[0]; i++) {
        size_t n = strlen(owned_names[i].prefix);
        if (!strcmp(owned_names[i].owner, owner) && !strncmp(name, owned_names[i].prefix, n) &&
            has_extension(name + n, owned_names[i].extensions))
            return 1;
    }
    return 0;
}

static hb_status join(char *out, size_t size, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, size, "%s/%s", folder, name) >= size)
        return hb_fail(HB_ERR_IO, "path too long: %s/%s", folder, name);
    return HB_OK;
}

static void manifest_name(const hb_output_folder *out, char *name, size_t size)
{
    snprintf(name, size, ".hgemm-%s.files", out->owner);
}

static void publishing_path(const hb_output_folder *out, char *path, size_t size)
{
    snprintf(path, size, "%s/.hgemm-%s-publishing", out->final, out->owner);
}

/* 1 if `path` is a folder itself, not a link to one. */
static int real_folder(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 1 if `path` is a regular file itself, not a link to one. */
static int real_file(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* --- the manifest ----------------------------------------------------------------------------------- */

typedef struct manifest_entry {
    char sha[HB_SHA256_HEX];
    unsigned long long bytes;
    char name[256];
} manifest_entry;

typedef struct manifest {
    manifest_entry *entries;
    size_t count;
} manifest;

/* The digest of a regular file that is not a link, read without waiting on anything. */
static hb_status digest_of(const char *path, char sha[HB_SHA256_HEX], unsigned long long *bytes)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return HB_ERR_IO; /* not ours to judge: the caller says what it means */
    }
    *bytes = (unsigned long long)st.st_size;
    hb_status status = hb_sha256_fd_hex(fd, path, sha);
    close(fd);
    return status;
}

/* Parses a manifest's text; lines it cannot read are left out (they name
 * nothing that could be removed). */
static hb_status parse_manifest(const char *text, manifest *m)
{
    size_t lines = 1;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    m->entries = calloc(lines, sizeof *m->entries);
    m->count = 0;
    if (!m->entries)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading a manifest of %zu lines", lines);
    for (const char *at = text; *at;) {
        size_t length = strcspn(at, "\n");
        char line[600];
        manifest_entry *e = &m->entries[m->count];
        snprintf(line, sizeof line, "%.*s", (int)(length < sizeof line ? length : 0), at);
        if (sscanf(line, "%64[0-9a-f] %llu %255s", e->sha, &e->bytes, e->name) == 3 && strlen(e->sha) == 64)
            m->count++;
        at += length + (at[length] == '\n');
    }
    return HB_OK;
}

/* The manifest at `path` (none: empty). */
static hb_status read_manifest(const char *path, manifest *m)
{
    char *text = NULL;
    size_t size;
    m->entries = NULL;
    m->count = 0;
    if (!real_file(path))
        return HB_OK; /* missing, or not a file of ours: it vouches for nothing */
    hb_status status = hb_input_read(path, NULL, MANIFEST_MAX_BYTES, HB_ERR_IO, 1, &text, &size);
    if (status == HB_OK && text)
        status = parse_manifest(text, m);
    free(text);
    return status;
}

static const manifest_entry *find_entry(const manifest *m, const char *name)
{
    for (size_t i = 0; i < m->count; i++)
        if (!strcmp(m->entries[i].name, name))
            return &m->entries[i];
    return NULL;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int visible(const struct dirent *entry)
{
    return entry->d_name[0] != '.';
}

/* The staged files' manifest, written into the staging folder. */
static hb_status write_manifest(const hb_output_folder *out)
{
    struct dirent **names;
    int n = scandir(out->stage, &names, visible, by_name);
    if (n < 0)
        return hb_fail(HB_ERR_IO, "cannot read the staging folder %s: %s", out->stage, strerror(errno));
    char list[64], path[FILE_ROOM];
    manifest_name(out, list, sizeof list);
    hb_status status = join(path, sizeof path, out->stage, list);
    hb_out_file file;
    if (status == HB_OK)
        status = hb_out_file_begin(&file, path);
    if (status == HB_OK)
        fputs(MANIFEST_HEADER, file.stream);
    for (int i = 0; i < n; i++) {
        char staged[FILE_ROOM], sha[HB_SHA256_HEX];
        unsigned long long bytes = 0;
        if (status == HB_OK && (status = join(staged, sizeof staged, out->stage, names[i]->d_name)) == HB_OK &&
            digest_of(staged, sha, &bytes) != HB_OK)
            status = hb_fail(HB_ERR_IO, "cannot read back the staged %s", staged);
        if (status == HB_OK)
            fprintf(file.stream, "%s %llu %s\n", sha, bytes, names[i]->d_name);
        free(names[i]);
    }
    free(names);
    if (status == HB_OK)
        return hb_out_file_commit(&file);
    if (file.stream)
        hb_out_file_abandon(&file);
    return status;
}

/* --- publishing ---------------------------------------------------------------------------------------- */

/* Moves every file of the publishing folder but the manifests into DIR. */
static hb_status move_files(const hb_output_folder *out, const char *publishing)
{
    struct dirent **names;
    int n = scandir(publishing, &names, visible, by_name);
    if (n < 0)
        return hb_fail(HB_ERR_IO, "cannot read %s: %s", publishing, strerror(errno));
    hb_status status = HB_OK;
    for (int i = 0; i < n; i++) {
        char from[FILE_ROOM], to[FILE_ROOM];
        if (status == HB_OK && (status = join(from, sizeof from, publishing, names[i]->d_name)) == HB_OK &&
            (status = join(to, sizeof to, out->final, names[i]->d_name)) == HB_OK && rename(from, to) != 0)
            status = hb_fail(HB_ERR_IO, "cannot move %s to %s: %s", from, to, strerror(errno));
        free(names[i]);
    }
    free(names);
    return status;
}

/* Removes DIR/name if the owner writes such names and it holds the bytes
 * the old manifest recorded: then it is a file an earlier run wrote. */
static void remove_if_ours(const hb_output_folder *out, const manifest_entry *old)
{
    char path[FILE_ROOM], sha[HB_SHA256_HEX];
    unsigned long long bytes;
    if (join(path, sizeof path, out->final, old->name) != HB_OK || !real_file(path))
        return;
    if (!owner_writes(out->owner, old->name) || digest_of(path, sha, &bytes) != HB_OK || strcmp(sha, old->sha) ||
        bytes != old->bytes) {
        hb_warn("left %s in place: an earlier %s listed it, but it is not a file %s wrote (or it changed since)",
                path, out->owner, out->owner);
        return;
    }
    if (unlink(path) != 0)
        hb_warn("cannot remove the stale %s: %s", path, strerror(errno));
}

/* Every file the old manifest lists and the new one does not. */
static hb_status remove_stale(const hb_output_folder *out, const char *old_path, const char *new_path)
{
    manifest old, fresh;
    HB_TRY(read_manifest(old_path, &old));
    hb_status status = read_manifest(new_path, &fresh);
    for (size_t i = 0; status == HB_OK && i < old.count; i++)
        if (!find_entry(&fresh, old.entries[i].name))
            remove_if_ours(out, &old.entries[i]);
    free(old.entries);
    free(fresh.entries);
    return status;
}

/* Finishes a publication from DIR/.hgemm-OWNER-publishing, whether this
 * process renamed it there a moment ago or a killed one did: each step
 * can be taken again after a crash at any point. */
static hb_status roll_forward(const hb_output_folder *out)
{
    char publishing[FOLDER_ROOM], list[64], manifest_in_dir[FILE_ROOM], new_manifest[FILE_ROOM],
        old_manifest[ASIDE_ROOM];
    publishing_path(out, publishing, sizeof publishing);
    manifest_name(out, list, sizeof list);
    HB_TRY(join(manifest_in_dir, sizeof manifest_in_dir, out->final, list));
    HB_TRY(join(new_manifest, sizeof new_manifest, publishing, list));
    snprintf(old_manifest, sizeof old_manifest, "%s.old", new_manifest);
    /* 1: the old manifest set aside (unless a killed run already did) */
    if (real_file(new_manifest) && !real_file(old_manifest) && real_file(manifest_in_dir) &&
        rename(manifest_in_dir, old_manifest) != 0)
        return hb_fail(HB_ERR_IO, "cannot set %s aside: %s", manifest_in_dir, strerror(errno));
    /* 2: the files, then the manifest that vouches for them */
    HB_TRY(move_files(out, publishing));
    HB_TRY(hb_sync_folder(out->final));
    if (real_file(new_manifest) && rename(new_manifest, manifest_in_dir) != 0)
        return hb_fail(HB_ERR_IO, "cannot move %s to %s: %s", new_manifest, manifest_in_dir, strerror(errno));
    /* 3: what the old set had and the new one lacks */
    HB_TRY(remove_stale(out, old_manifest, manifest_in_dir));
    if (real_file(old_manifest) && unlink(old_manifest) != 0)
        return hb_fail(HB_ERR_IO, "cannot remove %s: %s", old_manifest, strerror(errno));
    if (rmdir(publishing) != 0)
        return hb_fail(HB_ERR_IO, "cannot remove %s: %s (what is left in it?)", publishing, strerror(errno));
    return hb_sync_folder(out->final);
}

/* --- stale staging folders ---------------------------------------------------------------------------- */

/* 1 if `name` is a staging folder's name of `owner`: .hgemm-OWNER-XXXXXX. */
static int staging_name(const char *owner, const char *name)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, ".hgemm-%s-", owner);
    if (strncmp(name, prefix, (size_t)n) || strlen(name + n) != STAGE_SUFFIX_LENGTH)
        return 0;
    for (const char *c = name + n; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            return 0;
    return 1;
}

/* A killed writer's staging folder: its files with names the owner writes
 * (and its manifest) removed, then the folder; anything else left, and said. */
static void clear_stage(const hb_output_folder *out, const char *stage)
{
    DIR *dir = opendir(stage);
    if (!dir)
        return;
    char list[64];
    manifest_name(out, list, sizeof list);
    for (struct dirent *e; (e = readdir(dir));) {
        char path[FILE_ROOM];
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            join(path, sizeof path, stage, e->d_name) != HB_OK)
            continue;
        int ours = (owner_writes(out->owner, e->d_name) || !strcmp(e->d_name, list) ||
                    !strcmp(e->d_name, "gnuplot.log")) && real_file(path);
        if (ours && unlink(path) != 0)
            hb_warn("cannot remove %s: %s", path, strerror(errno));
    }
    closedir(dir);
    if (rmdir(stage) != 0)
        hb_warn("left the folder %s: it holds files %s did not write (%s)", stage, out->owner, strerror(errno));
}

static void clear_stale_stages(const hb_output_folder *out)
{
    DIR *dir = opendir(out->final);
    if (!dir)
        return;
    for (struct dirent *e; (e = readdir(dir));) {
        char path[FILE_ROOM];
        if (staging_name(out->owner, e->d_name) && join(path, sizeof path, out->final, e->d_name) == HB_OK &&
            real_folder(path))
            clear_stage(out, path);
    }
    closedir(dir);
}

/* --- the interface ----------------------------------------------------------------------------------------- */

static hb_status prepare(hb_output_folder *out)
{
    char publishing[FOLDER_ROOM];
    publishing_path(out, publishing, sizeof publishing);
    if (real_folder(publishing)) {
        fprintf(stderr, "%s: %s: finishing the publication an earlier %s left half done\n", hb_diag_program(),
                out->final, out->owner);
        HB_TRY(roll_forward(out));
    }
    clear_stale_stages(out);
    if (!mkdtemp(out->stage))
        return hb_fail(HB_ERR_IO, "cannot create a staging folder in %s: %s (is it writable?)", out->final,
                       strerror(errno));
    return HB_OK;
}

hb_status hb_output_begin(hb_output_folder *out, const char *folder, const char *owner)
{
    memset(out, 0, sizeof *out);
    out->lock.fd = -1;
    if ((size_t)snprintf(out->owner, sizeof out->owner, "%s", owner) >= sizeof out->owner ||
        (size_t)snprintf(out->final, sizeof out->final, "%s", folder) >= sizeof out->final ||
        (size_t)snprintf(out->stage, sizeof out->stage, "%s/.hgemm-%s-XXXXXX", folder, owner) >= sizeof out->stage)
        return hb_fail(HB_ERR_IO, "--out %s: the path is too long", folder);
    HB_TRY(hb_make_folders(folder, "--out folder"));
    char purpose[64];
    snprintf(purpose, sizeof purpose, "%s --out", owner);
    HB_TRY(hb_folder_lock_take(&out->lock, folder, purpose));
    hb_status status = prepare(out);
    if (status != HB_OK)
        hb_folder_lock_release(&out->lock);
    return status;
}

hb_status hb_output_path(const hb_output_folder *out, const char *name, char *path, size_t size)
{
    return join(path, size, out->stage, name);
}

FILE *hb_output_open(const hb_output_folder *out, const char *name)
{
    char path[FILE_ROOM];
    int fd;
    if (hb_output_path(out, name, path, sizeof path) != HB_OK || hb_create_new_file(path, NULL, &fd) != HB_OK)
        return NULL;
    FILE *file = fdopen(fd, "w");
    if (!file) {
        hb_fail(HB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        close(fd);
    }
    return file;
}

hb_status hb_output_close(FILE *file, const char *name)
{
    return hb_finish_stream(file, name);
}

hb_status hb_output_publish(hb_output_folder *out)
{
    char publishing[FOLDER_ROOM];
    publishing_path(out, publishing, sizeof publishing);
    hb_status status = write_manifest(out);
    if (status == HB_OK && rename(out->stage, publishing) != 0) /* from here on, the set goes in whole */
        status = hb_fail(HB_ERR_IO, "cannot rename %s to %s: %s", out->stage, publishing, strerror(errno));
    if (status != HB_OK) {
        hb_output_abandon(out);
        return status;
    }
    status = roll_forward(out);
    hb_folder_lock_release(&out->lock);
    return status;
}

void hb_output_abandon(hb_output_folder *out)
{
    if (real_folder(out->stage)) {
        DIR *dir = opendir(out->stage);
        for (struct dirent *e; dir && (e = readdir(dir));) {
            char path[FILE_ROOM];
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                join(path, sizeof path, out->stage, e->d_name) == HB_OK && unlink(path) != 0)
                hb_warn("cannot remove %s: %s", path, strerror(errno));
        }
        if (dir)
            closedir(dir);
        if (rmdir(out->stage) != 0)
            hb_warn("cannot remove the staging folder %s: %s", out->stage, strerror(errno));
    }
    hb_folder_lock_release(&out->lock);
}
