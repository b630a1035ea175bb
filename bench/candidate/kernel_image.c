#define _POSIX_C_SOURCE 200809L
#include "bench/candidate/kernel_image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"

#define HEAD_BYTES 4096   /* enough to see a PTX file's .version past its comment header */
#define ELF_MACHINE_CUDA 190 /* EM_CUDA, the e_machine of every cubin */

/* An ELF file whose e_machine (little-endian, at byte 18) is the CUDA machine. */
static int elf_machine(const unsigned char *head, size_t n)
{
    return n >= 20 ? head[18] | head[19] << 8 : -1;
}

static int is_elf(const unsigned char *head, size_t n)
{
    return n >= 4 && !memcmp(head, "\177ELF", 4);
}

static int is_fatbin(const unsigned char *head, size_t n)
{
    static const unsigned char magic[4] = {0x50, 0xed, 0x55, 0xba}; /* 0xBA55ED50, little-endian */
    return n >= 4 && !memcmp(head, magic, 4);
}

/* PTX is text that declares its ISA version near the top. */
static int is_ptx(const unsigned char *head, size_t n)
{
    if (memchr(head, '\0', n))
        return 0;
    char text[HEAD_BYTES + 1];
    memcpy(text, head, n);
    text[n] = '\0';
    return strstr(text, ".version") != NULL;
}

static hb_status classify(const char *path, const char *manifest_path, const unsigned char *head, size_t n)
{
    if (n == 0)
        return hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s is empty (did its build fail?)", path, manifest_path);
    if (is_elf(head, n) && elf_machine(head, n) != ELF_MACHINE_CUDA)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "cubin %s named by %s is an ELF file for machine %d, not a CUDA cubin (build it with "
                       "nvcc -cubin)",
                       path, manifest_path, elf_machine(head, n));
    if (is_elf(head, n) || is_fatbin(head, n) || is_ptx(head, n))
        return HB_OK;
    return hb_fail(HB_ERR_BAD_INPUT,
                   "cubin %s named by %s is not a cubin (ELF), fatbin or PTX file: it starts with bytes "
                   "%02x %02x %02x %02x (build it with nvcc -cubin)",
                   path, manifest_path, head[0], n > 1 ? head[1] : 0, n > 2 ? head[2] : 0, n > 3 ? head[3] : 0);
}

hb_status hb_kernel_image_check(const char *path, const char *manifest_path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s: %s%s", path, manifest_path, strerror(errno),
                       errno == ENOENT ? " (was it built? run make)" : "");
    struct stat st;
    unsigned char head[HEAD_BYTES];
    ssize_t n = -1;
    hb_status status = HB_OK;
    if (fstat(fd, &st) != 0)
        status = hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s: %s", path, manifest_path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        status = hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s is not a regular file", path, manifest_path);
    else if ((n = read(fd, head, sizeof head)) < 0)
        status = hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s cannot be read: %s", path, manifest_path,
                         strerror(errno));
    if (close(fd) != 0 && status == HB_OK)
        status = hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s: closing it failed: %s", path, manifest_path,
                         strerror(errno));
    return status != HB_OK ? status : classify(path, manifest_path, head, (size_t)n);
}

hb_status hb_manifest_check_images(const hb_manifest *manifest)
{
    for (int i = 0; i < manifest->n_cubins; i++)
        HB_TRY(hb_kernel_image_check(manifest->cubins[i].path, manifest->path));
    return HB_OK;
}
