#include "bench/candidate/kernel_image.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/candidate/cubin_elf.h"
#include "bench/candidate/library_image.h"
#include "bench/candidate/named_file.h"
#include "bench/core/diag.h"
#define ELF_MACHINE_CUDA 190 /* EM_CUDA, the e_machine of every cubin */

#define ELF64_HEADER_BYTES 64 /* sizeof(Elf64_Ehdr): every cubin is ELF64 */

/* The e_machine of an ELF header (little-endian, at byte 18); the header is whole. */
static int elf_machine(const unsigned char *head)
{
    return head[18] | head[19] << 8;
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
    char text[HB_NAMED_FILE_HEAD + 1];
    memcpy(text, head, n);
    text[n] = '\0';
    return strstr(text, ".version") != NULL;
}

/* An ELF cubin: a whole header for the CUDA machine, then its tables and
 * sections all in the file (a cubin cut short passes no further). */
static hb_status check_elf(const char *path, const char *manifest_path, const unsigned char *head, size_t n)
{
    if (n < ELF64_HEADER_BYTES)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "cubin %s named by %s is cut short: %zu bytes, less than the %d of an ELF header (did its "
                       "build or copy stop early? build it again with nvcc -cubin)",
                       path, manifest_path, n, ELF64_HEADER_BYTES);
    if (elf_machine(head) != ELF_MACHINE_CUDA)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "cubin %s named by %s is an ELF file for machine %d, not a CUDA cubin (build it with "
                       "nvcc -cubin)",
                       path, manifest_path, elf_machine(head));
    char label[4400];
    snprintf(label, sizeof label, "cubin %s named by %s", path, manifest_path);
    return hb_cubin_elf_check(path, label);
}

static hb_status classify(const char *path, const char *manifest_path, const unsigned char *head, size_t n)
{
    if (n == 0)
        return hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s is empty (did its build fail?)", path, manifest_path);
    if (is_elf(head, n))
        return check_elf(path, manifest_path, head, n);
    if (is_fatbin(head, n) || is_ptx(head, n))
        return HB_OK;
    return hb_fail(HB_ERR_BAD_INPUT,
                   "cubin %s named by %s is not a cubin (ELF), fatbin or PTX file: it starts with bytes "
                   "%02x %02x %02x %02x (build it with nvcc -cubin)",
                   path, manifest_path, head[0], n > 1 ? head[1] : 0, n > 2 ? head[2] : 0, n > 3 ? head[3] : 0);
}

hb_status hb_kernel_image_check(const char *path, const char *manifest_path)
{
    unsigned char head[HB_NAMED_FILE_HEAD];
    size_t n = 0, size = 0;
    HB_TRY(hb_named_file_head(path, "cubin", manifest_path, head, sizeof head, &n, &size));
    return classify(path, manifest_path, head, n);
}

hb_status hb_manifest_check_images(const hb_manifest *manifest)
{
    for (int i = 0; i < manifest->n_files; i++)
        HB_TRY(manifest->kind == HB_CANDIDATE_LAUNCHER ? hb_library_image_check(manifest->files[i].path, manifest->path)
                                                       : hb_kernel_image_check(manifest->files[i].path, manifest->path));
    return HB_OK;
}
