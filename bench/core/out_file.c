#define _GNU_SOURCE /* mkostemp, O_NOFOLLOW, O_CLOEXEC */
#include "bench/core/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"

/* The permissions a plain fopen would give: 0666 less the umask. */
static mode_t default_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

hb_status hb_out_file_begin(hb_out_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (!*name)
        return hb_fail(HB_ERR_IO, "cannot write %s: it names a folder, not a file", path);
    if ((size_t)snprintf(f->path, sizeof f->path, "%s", path) >= sizeof f->path ||
        (size_t)snprintf(f->temp, sizeof f->temp, "%.*s.%s.XXXXXX", (int)(name - path), path, name) >= sizeof f->temp)
        return hb_fail(HB_ERR_IO, "cannot write %s: the path is too long", path);
    int fd = mkostemp(f->temp, O_CLOEXEC); /* O_CREAT|O_EXCL: never an existing entry, link or FIFO */
    if (fd < 0) {
        char folder[HB_OUT_PATH_SIZE];
        hb_folder_of(path, folder, sizeof folder);
        return hb_fail(HB_ERR_IO, "cannot write %s: cannot create a file in %s: %s (does the folder exist, and is it "
                       "writable?)", path, folder, strerror(errno));
    }
    if (fchmod(fd, default_mode()) != 0 || !(f->stream = fdopen(fd, "w"))) {
        int error = errno;
        close(fd);
        unlink(f->temp);
        return hb_fail(HB_ERR_IO, "cannot write %s: %s", f->temp, strerror(error));
    }
    return HB_OK;
}

hb_status hb_finish_stream(FILE *stream, const char *label)
{
    errno = 0;
    int failed = fflush(stream) != 0 || ferror(stream);
    int error = errno;
    if (!failed && fsync(fileno(stream)) != 0) {
        failed = 1;
        error = errno;
    }
    if (fclose(stream) != 0 && !failed) {
        failed = 1;
        error = errno;
    }
    if (failed)
        return hb_fail(HB_ERR_IO, "writing %s failed: %s", label,
                       error ? strerror(error) : "a short write (disk full?)");
    return HB_OK;
}

hb_status hb_sync_folder(const char *folder)
{
    int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return hb_fail(HB_ERR_IO, "cannot open the folder %s to sync it: %s", folder, strerror(errno));
    int failed = fsync(fd) != 0 && errno != EINVAL; /* EINVAL: a file system without folder syncs */
    int error = errno;
    close(fd);
    if (failed)
        return hb_fail(HB_ERR_IO, "cannot sync the folder %s: %s", folder, strerror(error));
    return HB_OK;
}

hb_status hb_out_file_commit(hb_out_file *f)
{
    if (!f->stream)
        return hb_fail(HB_ERR_INTERNAL, "%s was committed or abandoned already", f->path);
    hb_status status = hb_finish_stream(f->stream, f->path);
    f->stream = NULL;
    if (status == HB_OK && rename(f->temp, f->path) != 0)
        status = hb_fail(HB_ERR_IO, "cannot rename %s to %s: %s", f->temp, f->path, strerror(errno));
    if (status != HB_OK) {
        unlink(f->temp);
        return status;
    }
    char folder[HB_OUT_PATH_SIZE];
    hb_folder_of(f->path, folder, sizeof folder);
    return hb_sync_folder(folder);
}

void hb_out_file_abandon(hb_out_file *f)
{
    if (!f->stream)
        return;
    fclose(f->stream);
    f->stream = NULL;
    unlink(f->temp);
}

hb_status hb_out_file_write(const char *path, const void *data, size_t size)
{
    hb_out_file f;
    HB_TRY(hb_out_file_begin(&f, path));
    if (size && fwrite(data, 1, size, f.stream) != size) {
        int error = errno;
        hb_out_file_abandon(&f);
        return hb_fail(HB_ERR_IO, "writing %s failed: %s", path, error ? strerror(error) : "a short write");
    }
    return hb_out_file_commit(&f);
}

hb_status hb_create_new_file(const char *path, const char *label, int *fd)
{
    *fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (*fd >= 0)
        return HB_OK;
    if (errno == EEXIST)
        return hb_fail(HB_ERR_IO, "cannot create %s: something is already there (a file the harness did not "
                       "make, or a link): it writes only new files here", label ? label : path);
    return hb_fail(HB_ERR_IO, "cannot create %s: %s", label ? label : path, strerror(errno));
}

/* `fd` (opened with O_NONBLOCK) is a regular file: then it may block again. */
static hb_status keep_if_regular(int *fd, const char *label, hb_status failure)
{
    struct stat st;
    if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int error = errno;
        close(*fd);
        *fd = -1;
        return hb_fail(failure, "%s is not a regular file%s%s: the harness writes only into its own files",
                       label, error ? ": " : "", error ? strerror(error) : "");
    }
    int flags = fcntl(*fd, F_GETFL);
    if (flags < 0 || fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int error = errno;
        close(*fd);
        *fd = -1;
        return hb_fail(HB_ERR_IO, "cannot set up %s for writing: %s", label, strerror(error));
    }
    return HB_OK;
}

static hb_status refused_open(const char *label, hb_status failure, int error)
{
    if (error == ELOOP)
        return hb_fail(failure, "%s is a symbolic link: the harness does not write through links (remove it, or "
                       "write elsewhere)", label);
    if (error == ENXIO)
        return hb_fail(failure, "%s is a FIFO or socket, not a regular file: remove it, or write elsewhere", label);
    return hb_fail(failure == HB_OK ? HB_ERR_IO : failure, "cannot open %s: %s", label, strerror(error));
}

hb_status hb_open_for_append(const char *path, const char *label, hb_status failure, int *fd)
{
    *fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0)
        return refused_open(label ? label : path, failure, errno);
    return keep_if_regular(fd, label ? label : path, failure);
}

hb_status hb_open_output(const char *path, int append, int *fd)
{
    *fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : 0), 0666);
    if (*fd < 0)
        return refused_open(path, HB_ERR_IO, errno);
    HB_TRY(keep_if_regular(fd, path, HB_ERR_IO));
    if (!append && ftruncate(*fd, 0) != 0) {
        int error = errno;
        close(*fd);
        *fd = -1;
        return hb_fail(HB_ERR_IO, "cannot empty %s: %s", path, strerror(error));
    }
    return HB_OK;
}
