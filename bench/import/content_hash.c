#define _DEFAULT_SOURCE /* DT_DIR, DT_REG */
#include "bench/import/content_hash.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/candidate/manifest.h"
#include "bench/core/diag.h"

void hb_content_hash_init(hb_content_hash *h)
{
    sha256_init(&h->ctx);
}

void hb_content_hash_bytes(hb_content_hash *h, const void *data, size_t size)
{
    sha256_update(&h->ctx, size, data);
}

void hb_content_hash_text(hb_content_hash *h, const char *text)
{
    hb_content_hash_bytes(h, text, strlen(text) + 1);
}

static hb_status hash_bytes_of(hb_content_hash *h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return hb_fail(HB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    unsigned char buffer[1 << 16];
    size_t got;
    while ((got = fread(buffer, 1, sizeof buffer, f)) > 0)
        hb_content_hash_bytes(h, buffer, got);
    int failed = ferror(f);
    fclose(f);
    if (failed)
        return hb_fail(HB_ERR_IO, "error reading %s", path);
    return HB_OK;
}

hb_status hb_content_hash_file(hb_content_hash *h, const char *path, const char *name)
{
    hb_content_hash_text(h, name);
    return hash_bytes_of(h, path);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* `dir` is the tree's root plus `below` (the relative part, "" at the root). */
static hb_status hash_folder(hb_content_hash *h, const char *root, const char *below)
{
    char dir[HB_PATH_MAX];
    snprintf(dir, sizeof dir, "%s%s%s", root, *below ? "/" : "", below);
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, by_name);
    if (n < 0)
        return hb_fail(HB_ERR_IO, "cannot list %s: %s", dir, strerror(errno));
    hb_status status = HB_OK;
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        if (status == HB_OK && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            char rel[HB_PATH_MAX], path[2 * HB_PATH_MAX];
            snprintf(rel, sizeof rel, "%s%s%s", below, *below ? "/" : "", name);
            snprintf(path, sizeof path, "%s/%s", root, rel);
            struct stat st;
            if (stat(path, &st) != 0)
                status = hb_fail(HB_ERR_IO, "cannot stat %s: %s", path, strerror(errno));
            else if (S_ISDIR(st.st_mode))
                status = hash_folder(h, root, rel);
            else if (S_ISREG(st.st_mode))
                status = hb_content_hash_file(h, path, rel);
        }
        free(entries[i]);
    }
    free(entries);
    return status;
}

hb_status hb_content_hash_tree(hb_content_hash *h, const char *dir)
{
    return hash_folder(h, dir, "");
}

void hb_content_hash_hex(hb_content_hash *h, char hex[HB_SHA256_HEX])
{
    unsigned char digest[SHA256_DIGEST_SIZE];
    sha256_digest(&h->ctx, sizeof digest, digest);
    hb_sha256_digest_hex(digest, hex);
}
