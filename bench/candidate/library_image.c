#define _POSIX_C_SOURCE 200809L
#include "bench/candidate/library_image.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* What the ELF header says the file is: a shared library for this machine. */
static hb_status classify(const char *path, const char *manifest_path, const unsigned char *head, size_t n)
{
    if (n == 0)
        return hb_fail(HB_ERR_BAD_INPUT, "launcher library %s named by %s is empty (did its build fail?)", path,
                       manifest_path);
    if (n >= SELFMAG && memcmp(head, ELFMAG, SELFMAG) == 0 && n < sizeof(Elf64_Ehdr))
        return hb_fail(HB_ERR_BAD_INPUT,
                       "launcher library %s named by %s is cut short: %zu bytes, less than the %zu of an ELF header "
                       "(did its build or copy stop early?); %s",
                       path, manifest_path, n, sizeof(Elf64_Ehdr), build_hint);
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

/* A table of `count` entries of `entry` bytes at `offset` lies in a file of `size` bytes. */
static int table_fits(uint64_t offset, size_t entry, uint64_t count, size_t size)
{
    return offset <= size && (size - offset) / entry >= count;
}

/* A program header table is a few hundred bytes; 64 KiB of them is no library's. */
#define MAX_PROGRAM_HEADERS 1024

/* The program headers: in the file, every loaded segment's bytes in the file,
 * and no program interpreter: a position-independent executable (/bin/ls) is
 * ET_DYN too, but it names one (PT_INTERP); a shared library does not. */
static hb_status check_segments(int fd, const char *path, const char *manifest_path, const Elf64_Ehdr *h,
                                size_t size)
{
    if (h->e_phnum == 0 || h->e_phentsize != sizeof(Elf64_Phdr) || h->e_phnum > MAX_PROGRAM_HEADERS ||
        !table_fits(h->e_phoff, sizeof(Elf64_Phdr), h->e_phnum, size))
        return hb_fail(HB_ERR_BAD_INPUT,
                       "launcher library %s named by %s is cut short or corrupt: its %u program headers at offset "
                       "%llu do not fit its %zu bytes; %s",
                       path, manifest_path, (unsigned)h->e_phnum, (unsigned long long)h->e_phoff, size, build_hint);
    Elf64_Phdr table[MAX_PROGRAM_HEADERS];
    size_t n;
    HB_TRY(hb_named_file_read_at(fd, path, (off_t)h->e_phoff, table, h->e_phnum * sizeof *table, &n));
    for (size_t i = 0; i < h->e_phnum; i++) {
        if (table[i].p_type == PT_INTERP)
            return hb_fail(HB_ERR_BAD_INPUT,
                           "launcher library %s named by %s is an executable (it names a program interpreter), not a "
                           "shared library; %s",
                           path, manifest_path, build_hint);
        if (table[i].p_type == PT_LOAD && (table[i].p_offset > size || table[i].p_filesz > size - table[i].p_offset))
            return hb_fail(HB_ERR_BAD_INPUT,
                           "launcher library %s named by %s is cut short or corrupt: its segment %zu (%llu bytes at "
                           "offset %llu) is not in its %zu bytes; %s",
                           path, manifest_path, i, (unsigned long long)table[i].p_filesz,
                           (unsigned long long)table[i].p_offset, size, build_hint);
    }
    return HB_OK;
}

/* The section table, which a linker writes last: a library cut short anywhere lacks it. */
static hb_status check_sections(const char *path, const char *manifest_path, const Elf64_Ehdr *h, size_t size)
{
    if (h->e_shnum == 0 || (h->e_shentsize == sizeof(Elf64_Shdr) &&
                            table_fits(h->e_shoff, sizeof(Elf64_Shdr), h->e_shnum, size)))
        return HB_OK;
    return hb_fail(HB_ERR_BAD_INPUT,
                   "launcher library %s named by %s is cut short or corrupt: its %u section headers at offset %llu "
                   "do not fit its %zu bytes; %s",
                   path, manifest_path, (unsigned)h->e_shnum, (unsigned long long)h->e_shoff, size, build_hint);
}

hb_status hb_library_image_check(const char *path, const char *manifest_path)
{
    unsigned char head[sizeof(Elf64_Ehdr)] = {0};
    size_t n = 0, size = 0;
    int fd;
    HB_TRY(hb_named_file_open(path, "launcher library", manifest_path, &fd, &size));
    hb_status status = hb_named_file_read_at(fd, path, 0, head, sizeof head, &n);
    if (status == HB_OK)
        status = classify(path, manifest_path, head, n);
    Elf64_Ehdr header;
    memcpy(&header, head, sizeof header);
    if (status == HB_OK)
        status = check_segments(fd, path, manifest_path, &header, size);
    if (status == HB_OK)
        status = check_sections(path, manifest_path, &header, size);
    if (close(fd) != 0 && status == HB_OK)
        status = hb_fail(HB_ERR_BAD_INPUT, "launcher library %s named by %s: closing it failed: %s", path,
                         manifest_path, strerror(errno));
    return status;
}
