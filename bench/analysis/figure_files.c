#define _POSIX_C_SOURCE 200809L /* pread, fsync, O_NOFOLLOW */
#include "bench/analysis/figure_files.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/analysis/gnuplot_text.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"

hb_status hb_figure_output(FILE *script, hb_figure_files *drawn, const char *stem, const char *extension)
{
    if (drawn->count == HB_FIGURE_FILES_MAX)
        return hb_fail(HB_ERR_INTERNAL, "more than %d figures in one gnuplot script", HB_FIGURE_FILES_MAX);
    char *name = drawn->names[drawn->count];
    if ((size_t)snprintf(name, HB_FIGURE_NAME_SIZE, "%s.%s", stem, extension) >= HB_FIGURE_NAME_SIZE)
        return hb_fail(HB_ERR_INTERNAL, "the figure name %s.%s is too long", stem, extension);
    drawn->count++;
    fputs("set output ", script);
    hb_gnuplot_string(script, name);
    fputc('\n', script);
    return HB_OK;
}

/* --- whole files ---------------------------------------------------------------------------- */

/* PNG (ISO/IEC 15948, 5.2 and 11.2.5): the 8 bytes every file starts with,
 * and the IEND chunk every file ends with (length 0, type, CRC-32). */
static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
static const unsigned char png_end[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};

/* 1 when the `size` bytes at `offset` of `fd` were read. */
static int read_at(int fd, off_t offset, void *bytes, size_t size)
{
    size_t got = 0;
    while (got < size) {
        ssize_t n = pread(fd, (char *)bytes + got, size - got, offset + (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        got += (size_t)n;
    }
    return 1;
}

/* Why the PNG of `size` bytes open on `fd` is not whole; NULL when it is. */
static const char *png_flaw(int fd, off_t size)
{
    unsigned char head[sizeof png_signature], tail[sizeof png_end];
    if (size < (off_t)(sizeof head + sizeof tail))
        return "cut short (too small to be a PNG)";
    if (!read_at(fd, 0, head, sizeof head) || !read_at(fd, size - (off_t)sizeof tail, tail, sizeof tail))
        return "unreadable";
    if (memcmp(head, png_signature, sizeof head) != 0)
        return "not a PNG (no PNG signature)";
    return memcmp(tail, png_end, sizeof tail) == 0 ? NULL : "cut short (no IEND chunk at its end)";
}

/* Why the SVG of `size` bytes open on `fd` is not whole; NULL when it is. */
static const char *svg_flaw(int fd, off_t size)
{
    static const char end[] = "</svg>";
    char tail[256]; /* gnuplot ends its SVG with "</svg>" and a line break or two */
    size_t n = size < (off_t)sizeof tail ? (size_t)size : sizeof tail;
    if (!read_at(fd, size - (off_t)n, tail, n))
        return "unreadable";
    while (n > 0 && isspace((unsigned char)tail[n - 1]))
        n--;
    return n >= strlen(end) && memcmp(tail + n - strlen(end), end, strlen(end)) == 0
               ? NULL
               : "cut short (it does not end with </svg>)";
}

static const struct {
    const char *extension;
    const char *(*flaw)(int fd, off_t size);
} formats[] = {{".png", png_flaw}, {".svg", svg_flaw}};

/* Why the file open on `fd` is not a whole figure named `name`; NULL when it is. */
static const char *figure_flaw(int fd, const char *name)
{
    const char *dot = strrchr(name, '.');
    struct stat st;
    if (fstat(fd, &st) != 0)
        return "unreadable";
    if (!S_ISREG(st.st_mode))
        return "not a regular file";
    if (st.st_size == 0)
        return "empty";
    for (size_t i = 0; dot && i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(dot, formats[i].extension) == 0)
            return formats[i].flaw(fd, st.st_size);
    return "of a format with no check";
}

/* One recorded figure: there, whole, synced. */
static hb_status check_figure(const hb_output_folder *out, const char *name)
{
    char path[HB_OUTPUT_PATH_SIZE + HB_FIGURE_NAME_SIZE];
    HB_TRY(hb_output_path(out, name, path, sizeof path));
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return hb_fail(HB_ERR_IO, "gnuplot drew no %s for %s (%s): the disk may be full", name, out->final,
                       strerror(errno));
    const char *flaw = figure_flaw(fd, name);
    int synced = flaw || fsync(fd) == 0, error = errno;
    close(fd);
    if (flaw)
        return hb_fail(HB_ERR_IO, "the figure %s gnuplot drew for %s is %s: the disk may be full", name, out->final,
                       flaw);
    if (!synced)
        return hb_fail(HB_ERR_IO, "cannot write the figure %s for %s to the disk: %s (is the disk full?)", name,
                       out->final, strerror(error));
    return HB_OK;
}

hb_status hb_figure_files_check(const hb_figure_files *drawn, const hb_output_folder *out)
{
    for (size_t i = 0; i < drawn->count; i++)
        HB_TRY(check_figure(out, drawn->names[i]));
    return hb_sync_folder(out->stage);
}
