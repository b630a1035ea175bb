#include "bench/candidate/library_image.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "bench/candidate/named_file.h"
#include "bench/core/diag.h"

#define EM_CUDA_MACHINE 190 /* the e_machine of a cubin (EM_CUDA; older <elf.h> lack the name) */

/* The machine this harness was built for: a library for another cannot be loaded here. */
#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#elif defined(__powerpc64__)
#define HOST_MACHINE EM_PPC64
#else
#define HOST_MACHINE 0 /* unknown: the loader's dlerror() will say */
#endif

static const char *elf_type_name(unsigned type)
{
    switch (type) {
    case ET_REL:
        return "an object file";
    case ET_EXEC:
        return "an executable";
    case ET_CORE:
        return "a core dump";
    default:
        return "an ELF file of an unknown type";
    }
}

static const char build_hint[] = "build it with nvcc -shared -Xcompiler -fPIC (docs/launchers.md)";

/* head: the first n bytes of the file. */
static hb_status classify(const char *path, const char *manifest_path, const unsigned char *head, size_t n)
{
    if (n == 0)
        return hb_fail(HB_ERR_BAD_INPUT, "launcher library %s named by %s is empty (did its build fail?)", path,
                       manifest_path);
    if (n < sizeof(Elf64_Ehdr) || memcmp(head, ELFMAG, SELFMAG) != 0)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "launcher library %s named by %s is not a shared library (ELF): it starts with bytes "
                       "%02x %02x %02x %02x; %s",
                       path, manifest_path, head[0], n > 1 ? head[1] : 0, n > 2 ? head[2] : 0, n > 3 ? head[3] : 0,
                       build_hint);
    Elf64_Ehdr header; /* e_type and e_machine sit at the same offsets in 32-bit headers */
    memcpy(&header, head, sizeof header);
    if (header.e_machine == EM_CUDA_MACHINE)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "launcher library %s named by %s is a cubin, not a shared library: give a cubin as \"cubin\" "
                       "in a manifest of kind cubin, or %s",
                       path, manifest_path, build_hint);
    if (HOST_MACHINE && (header.e_machine != HOST_MACHINE || head[EI_CLASS] != ELFCLASS64))
        return hb_fail(HB_ERR_BAD_INPUT,
                       "launcher library %s named by %s is built for ELF machine %u (%s-bit); this harness runs on "
                       "machine %d (64-bit): build it for this machine",
                       path, manifest_path, header.e_machine, head[EI_CLASS] == ELFCLASS64 ? "64" : "32", HOST_MACHINE);
    if (header.e_type != ET_DYN)
        return hb_fail(HB_ERR_BAD_INPUT, "launcher library %s named by %s is %s, not a shared library; %s", path,
                       manifest_path, elf_type_name(header.e_type), build_hint);
    return HB_OK;
}

hb_status hb_library_image_check(const char *path, const char *manifest_path)
{
    unsigned char head[sizeof(Elf64_Ehdr)];
    size_t n = 0;
    HB_TRY(hb_named_file_head(path, "launcher library", manifest_path, head, sizeof head, &n));
    return classify(path, manifest_path, head, n);
}
