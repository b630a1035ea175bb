/* What counts as module-scope state, as nvcc 13.0 lays a cubin out (checked
 * with readelf -S / -s on small kernels for sm_75 to sm_120, with and without
 * -rdc and -G; docs/methodology.md, "Module-scope state"):
 *
 * - counted: every section that is allocated on the device and writable
 *   (SHF_ALLOC | SHF_WRITE), whatever its type.  That is .nv.global
 *   (uninitialised __device__ and __managed__ variables: NOBITS, or
 *   SHT_CUDA_NOBITS in a relocatable -rdc cubin) and .nv.global.init
 *   (initialised __device__ variables, __device__ const ones, which a kernel
 *   can still write through a cast, and printf's format strings).  Judging by
 *   the flags rather than by those two names also counts any writable section
 *   a later toolkit adds: it can only over-count, which refuses, never let
 *   state through.
 * - not counted: .nv.constantN (__constant__ data and kernel parameters:
 *   read-only for kernels, no SHF_WRITE) and .nv.shared.* (static __shared__
 *   and reserved shared memory: writable, but each block gets its own, which
 *   does not outlive the block).
 * - counted once: from sm_100 on, .nv.merc.* sections mirror others (the
 *   same bytes at the same file offset, e.g. .nv.merc.nv.global.init), so a
 *   section counts under its name without the ".nv.merc" prefix, the larger
 *   of the two sizes if they differ.
 *
 * Device-heap allocation shows in the symbol table: device malloc() and
 * operator new reference "malloc" (undefined, resolved by the driver),
 * __nv_aligned_device_malloc "__cuda_syscall_aligned_malloc", and a
 * device-side cudaMalloc "__cudaCDP2Malloc". */
#include "bench/candidate/cubin_elf.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cubin_elf.c reads little-endian ELF structures in place: port it to this host's byte order"
#endif

/* A cubin is KiB to tens of MiB; a file larger than this is not one. */
#define MAX_CUBIN_BYTES ((size_t)1 << 30)

/* The ".nv.merc" of a mirror section's name, which the mirrored section lacks. */
#define MERC_PREFIX ".nv.merc"

typedef struct elf_view {
    const char *path;
    const unsigned char *data;
    size_t size;
    Elf64_Ehdr header;
    Elf64_Shdr names; /* the section-name string table */
} elf_view;

/* --- the file ----------------------------------------------------------------- */

/* A regular file of at most MAX_CUBIN_BYTES (bench/core/input_file.h), whole. */
static hb_status read_whole_file(const char *path, const char *label, unsigned char **data, size_t *size)
{
    char *text;
    HB_TRY(hb_input_read(path, label, MAX_CUBIN_BYTES, HB_ERR_BAD_INPUT, 0, &text, size));
    *data = (unsigned char *)text;
    return HB_OK;
}

/* --- the ELF structures ---------------------------------------------------------- */

/* Section i's header; i < e_shnum and the table lies in the file (check_header). */
static Elf64_Shdr section_at(const elf_view *v, size_t i)
{
    Elf64_Shdr sh;
    memcpy(&sh, v->data + v->header.e_shoff + i * sizeof sh, sizeof sh); /* memcpy: e_shoff need not be aligned */
    return sh;
}

/* A section whose bytes are read must lie in the file. */
static hb_status check_contents(const elf_view *v, const Elf64_Shdr *sh, const char *what)
{
    if (sh->sh_type != SHT_NOBITS && sh->sh_offset <= v->size && sh->sh_size <= v->size - sh->sh_offset)
        return HB_OK;
    return hb_fail(HB_ERR_BAD_INPUT, "%s is truncated or corrupt: its %s (%llu bytes at offset %llu) is not in the "
                   "file's %zu bytes", v->path, what, (unsigned long long)sh->sh_size,
                   (unsigned long long)sh->sh_offset, v->size);
}

/* The NUL-terminated string at `offset` of string table `table`, or NULL
 * when it is not inside the table. */
static const char *string_at(const elf_view *v, const Elf64_Shdr *table, uint64_t offset)
{
    if (offset >= table->sh_size)
        return NULL;
    const char *start = (const char *)v->data + table->sh_offset + offset;
    return memchr(start, '\0', table->sh_size - offset) ? start : NULL;
}

static hb_status check_identity(const elf_view *v)
{
    if (v->size < SELFMAG || memcmp(v->data, ELFMAG, SELFMAG) != 0)
        return hb_fail(HB_ERR_UNSUPPORTED,
                       "%s is not an ELF cubin (a fatbin or PTX file?): the harness reads a candidate's "
                       "module-scope memory from its cubin; build one per architecture with "
                       "nvcc -cubin -gencode arch=compute_XX,code=sm_XX",
                       v->path);
    if (v->size < sizeof(Elf64_Ehdr))
        return hb_fail(HB_ERR_BAD_INPUT, "%s is truncated: %zu bytes, shorter than an ELF64 header (%zu)", v->path,
                       v->size, sizeof(Elf64_Ehdr));
    if (v->data[EI_CLASS] != ELFCLASS64 || v->data[EI_DATA] != ELFDATA2LSB)
        return hb_fail(HB_ERR_BAD_INPUT, "%s is not a CUDA cubin: cubins are 64-bit little-endian ELF files", v->path);
    return HB_OK;
}

/* A table of `count` entries of `entry_size` bytes at `offset` lies in the file. */
static int table_fits(const elf_view *v, uint64_t offset, size_t entry_size, unsigned count)
{
    return offset <= v->size && (v->size - offset) / entry_size >= count;
}

/* The program headers come last in a cubin: a file cut anywhere is caught
 * here or at the section table. */
static hb_status check_program_headers(const elf_view *v)
{
    const Elf64_Ehdr *h = &v->header;
    if (h->e_phnum == 0 || (h->e_phentsize == sizeof(Elf64_Phdr) && table_fits(v, h->e_phoff, sizeof(Elf64_Phdr),
                                                                                 h->e_phnum)))
        return HB_OK;
    return hb_fail(HB_ERR_BAD_INPUT, "%s is truncated or corrupt: its %u program headers of %u bytes at offset %llu "
                   "do not fit its %zu bytes", v->path, (unsigned)h->e_phnum, (unsigned)h->e_phentsize,
                   (unsigned long long)h->e_phoff, v->size);
}

static hb_status check_header(elf_view *v)
{
    HB_TRY(check_identity(v));
    memcpy(&v->header, v->data, sizeof v->header);
    const Elf64_Ehdr *h = &v->header;
    if (h->e_machine != EM_CUDA)
        return hb_fail(HB_ERR_BAD_INPUT, "%s is an ELF file for machine %u, not a CUDA cubin (machine %d, EM_CUDA)",
                       v->path, (unsigned)h->e_machine, EM_CUDA);
    HB_TRY(check_program_headers(v));
    if (h->e_shentsize != sizeof(Elf64_Shdr) || h->e_shnum == 0)
        return hb_fail(HB_ERR_BAD_INPUT, "%s has no usable section table (%u sections of %u bytes)", v->path,
                       (unsigned)h->e_shnum, (unsigned)h->e_shentsize);
    if (!table_fits(v, h->e_shoff, sizeof(Elf64_Shdr), h->e_shnum))
        return hb_fail(HB_ERR_BAD_INPUT, "%s is truncated: its %u section headers at offset %llu run past its end "
                       "(%zu bytes)", v->path, (unsigned)h->e_shnum, (unsigned long long)h->e_shoff, v->size);
    if (h->e_shstrndx >= h->e_shnum)
        return hb_fail(HB_ERR_BAD_INPUT, "%s is corrupt: its section-name table is section %u of %u", v->path,
                       (unsigned)h->e_shstrndx, (unsigned)h->e_shnum);
    v->names = section_at(v, h->e_shstrndx);
    return check_contents(v, &v->names, "section-name table");
}

static hb_status section_name(const elf_view *v, size_t i, const char **name)
{
    Elf64_Shdr sh = section_at(v, i);
    *name = string_at(v, &v->names, sh.sh_name);
    if (!*name)
        return hb_fail(HB_ERR_BAD_INPUT, "%s is corrupt: section %zu's name lies outside the section-name table",
                       v->path, i);
    return HB_OK;
}

/* --- module-scope memory ------------------------------------------------------------ */

/* A mirror's name without ".nv.merc", so that it and its original compare equal. */
static const char *canonical_name(const char *name)
{
    return strncmp(name, MERC_PREFIX ".", sizeof MERC_PREFIX) == 0 ? name + sizeof MERC_PREFIX - 1 : name;
}

/* Writable device memory that outlives a block: the file's top comment says why. */
static int holds_module_state(const Elf64_Shdr *sh, const char *name)
{
    const Elf64_Xword flags = SHF_ALLOC | SHF_WRITE;
    return (sh->sh_flags & flags) == flags && strncmp(canonical_name(name), ".nv.shared", 10) != 0;
}

static hb_status section_holds_state(const elf_view *v, size_t i, int *holds)
{
    const char *name;
    HB_TRY(section_name(v, i, &name));
    Elf64_Shdr sh = section_at(v, i);
    *holds = holds_module_state(&sh, name);
    return HB_OK;
}

/* A section that holds module state, by the name it counts under. */
typedef struct state_section {
    const char *name; /* canonical: a mirror's without ".nv.merc" */
    uint64_t size;
    size_t index;
} state_section;

/* By name, then the larger first, then the earlier: the first of each name counts. */
static int by_name_then_size(const void *a, const void *b)
{
    const state_section *x = a, *y = b;
    int by_name = strcmp(x->name, y->name);
    if (by_name)
        return by_name;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Each name's largest section counts once (a mirror and its original are one
 * memory).  Sorted, not compared pair by pair: a file may declare 65,535
 * sections, and a quadratic walk over them takes most of a minute. */
static hb_status sum_module_memory(const elf_view *v, hb_module_state *out)
{
    state_section *list = malloc(((size_t)v->header.e_shnum + 1) * sizeof *list);
    if (!list)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", v->path);
    size_t count = 0;
    hb_status status = HB_OK;
    for (size_t i = 0; status == HB_OK && i < v->header.e_shnum; i++) {
        const char *name;
        status = section_name(v, i, &name);
        const Elf64_Shdr sh = section_at(v, i);
        if (status == HB_OK && holds_module_state(&sh, name))
            list[count++] = (state_section){canonical_name(name), sh.sh_size, i};
    }
    if (status == HB_OK && count > 1)
        qsort(list, count, sizeof *list, by_name_then_size);
    for (size_t i = 0; status == HB_OK && i < count; i++)
        if (i == 0 || strcmp(list[i].name, list[i - 1].name))
            out->global_bytes += list[i].size;
    free(list);
    return status;
}

/* --- symbols ------------------------------------------------------------------------- */

/* Device-heap allocators as a cubin names them (the file's top comment). */
static int is_heap_allocator(const char *name)
{
    static const char *const allocators[] = {"malloc", "__nv_aligned_device_malloc", "__cuda_syscall_aligned_malloc",
                                             "__cuda_syscall_malloc", "__cudaCDP2Malloc", "__cudaCDP2MallocAsync",
                                             "cudaMalloc", "cudaMallocAsync"};
    for (size_t i = 0; i < sizeof allocators / sizeof allocators[0]; i++)
        if (!strcmp(name, allocators[i]))
            return 1;
    return 0;
}

static hb_status note_symbol(const elf_view *v, const Elf64_Sym *sym, const char *name, hb_module_state *out)
{
    if (is_heap_allocator(name) && !out->device_malloc) {
        out->device_malloc = 1;
        snprintf(out->malloc_symbol, sizeof out->malloc_symbol, "%s", name);
    }
    /* A variable: STT_OBJECT, or in an -rdc cubin a processor-specific type (13); never code or a section. */
    const unsigned type = ELF64_ST_TYPE(sym->st_info);
    if (type == STT_FUNC || type == STT_SECTION || type == STT_FILE || sym->st_shndx == SHN_UNDEF ||
        sym->st_shndx >= v->header.e_shnum || sym->st_size <= out->largest_bytes)
        return HB_OK;
    int holds;
    HB_TRY(section_holds_state(v, sym->st_shndx, &holds));
    if (holds) {
        out->largest_bytes = sym->st_size;
        snprintf(out->largest_symbol, sizeof out->largest_symbol, "%s", name);
    }
    return HB_OK;
}

static hb_status scan_symbols(const elf_view *v, const Elf64_Shdr *symtab, hb_module_state *out)
{
    HB_TRY(check_contents(v, symtab, "symbol table"));
    if (symtab->sh_entsize != sizeof(Elf64_Sym) || symtab->sh_link >= v->header.e_shnum)
        return hb_fail(HB_ERR_BAD_INPUT, "%s is corrupt: a symbol table has %llu-byte entries and string table %u",
                       v->path, (unsigned long long)symtab->sh_entsize, (unsigned)symtab->sh_link);
    const Elf64_Shdr strings = section_at(v, symtab->sh_link);
    HB_TRY(check_contents(v, &strings, "symbol string table"));
    for (uint64_t k = 1; k < symtab->sh_size / sizeof(Elf64_Sym); k++) { /* entry 0 is the null symbol */
        Elf64_Sym sym;
        memcpy(&sym, v->data + symtab->sh_offset + k * sizeof sym, sizeof sym);
        const char *name = string_at(v, &strings, sym.st_name);
        if (!name)
            return hb_fail(HB_ERR_BAD_INPUT, "%s is corrupt: symbol %llu's name lies outside its string table",
                           v->path, (unsigned long long)k);
        HB_TRY(note_symbol(v, &sym, name, out));
    }
    return HB_OK;
}

/* A cubin has one symbol table, and from sm_100 on its mirror: a file that
 * declares more is corrupt (and scanning each of thousands would take long). */
#define MAX_SYMBOL_TABLES 8

/* .symtab, and from sm_100 on its mirror .nv.merc.symtab (of a processor-specific type). */
static hb_status scan_all_symbols(const elf_view *v, hb_module_state *out)
{
    unsigned tables = 0;
    for (size_t i = 0; i < v->header.e_shnum; i++) {
        const char *name;
        HB_TRY(section_name(v, i, &name));
        const Elf64_Shdr sh = section_at(v, i);
        if (sh.sh_type != SHT_SYMTAB && strcmp(canonical_name(name), ".symtab"))
            continue;
        if (++tables > MAX_SYMBOL_TABLES)
            return hb_fail(HB_ERR_BAD_INPUT, "%s is corrupt: it declares more than %d symbol tables", v->path,
                           MAX_SYMBOL_TABLES);
        HB_TRY(scan_symbols(v, &sh, out));
    }
    return HB_OK;
}

/* --- the layout ------------------------------------------------------------------------- */

/* Sections of the standard types that always hold bytes of the file
 * (processor-specific types may not: SHT_CUDA_NOBITS). */
static int has_file_contents(const Elf64_Shdr *sh)
{
    switch (sh->sh_type) {
    case SHT_PROGBITS:
    case SHT_SYMTAB:
    case SHT_STRTAB:
    case SHT_RELA:
    case SHT_REL:
    case SHT_NOTE:
    case SHT_DYNSYM:
        return 1;
    default:
        return 0;
    }
}

/* Every segment's and every standard section's bytes lie in the file. */
static hb_status check_layout(const elf_view *v)
{
    for (size_t i = 0; i < v->header.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, v->data + v->header.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_offset > v->size || ph.p_filesz > v->size - ph.p_offset)
            return hb_fail(HB_ERR_BAD_INPUT, "%s is truncated or corrupt: its segment %zu (%llu bytes at offset %llu) "
                           "is not in the file's %zu bytes", v->path, i, (unsigned long long)ph.p_filesz,
                           (unsigned long long)ph.p_offset, v->size);
    }
    for (size_t i = 0; i < v->header.e_shnum; i++) {
        const Elf64_Shdr sh = section_at(v, i);
        if (has_file_contents(&sh))
            HB_TRY(check_contents(v, &sh, "a section"));
    }
    return HB_OK;
}

/* --- the whole ------------------------------------------------------------------------- */

/* The file read and its header and tables checked. */
static hb_status open_view(const char *path, const char *label, elf_view *v, unsigned char **data)
{
    *v = (elf_view){.path = label ? label : path};
    HB_TRY(read_whole_file(path, v->path, data, &v->size));
    v->data = *data;
    return check_header(v);
}

hb_status hb_cubin_elf_check(const char *path, const char *label)
{
    unsigned char *data = NULL;
    elf_view v;
    hb_status status = open_view(path, label, &v, &data);
    if (status == HB_OK)
        status = check_layout(&v);
    free(data);
    return status;
}

hb_status hb_cubin_module_state(const char *path, hb_module_state *out)
{
    memset(out, 0, sizeof *out);
    unsigned char *data = NULL;
    elf_view v;
    hb_status status = open_view(path, NULL, &v, &data);
    if (status == HB_OK)
        status = sum_module_memory(&v, out);
    if (status == HB_OK)
        status = scan_all_symbols(&v, out);
    free(data);
    out->scanned = status == HB_OK;
    return status;
}

/* --- a kernel by name -------------------------------------------------------------------- */

/* A kernel's symbol: code (STT_FUNC) in a section of the file, not a reference to another module's. */
static int defines_symbol(const elf_view *v, const Elf64_Sym *sym)
{
    return ELF64_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_shndx != SHN_UNDEF && sym->st_shndx < v->header.e_shnum;
}

static hb_status find_in_table(const elf_view *v, const Elf64_Shdr *symtab, const char *name, int *defines)
{
    HB_TRY(check_contents(v, symtab, "symbol table"));
    if (symtab->sh_entsize != sizeof(Elf64_Sym) || symtab->sh_link >= v->header.e_shnum)
        return hb_fail(HB_ERR_BAD_INPUT, "%s is corrupt: a symbol table has %llu-byte entries and string table %u",
                       v->path, (unsigned long long)symtab->sh_entsize, (unsigned)symtab->sh_link);
    const Elf64_Shdr strings = section_at(v, symtab->sh_link);
    HB_TRY(check_contents(v, &strings, "symbol string table"));
    for (uint64_t k = 1; k < symtab->sh_size / sizeof(Elf64_Sym) && !*defines; k++) {
        Elf64_Sym sym;
        memcpy(&sym, v->data + symtab->sh_offset + k * sizeof sym, sizeof sym);
        const char *symbol = string_at(v, &strings, sym.st_name);
        *defines = symbol && defines_symbol(v, &sym) && !strcmp(symbol, name);
    }
    return HB_OK;
}

hb_status hb_cubin_defines_function(const void *data, size_t size, const char *label, const char *name,
                                    int *defines)
{
    *defines = 0;
    elf_view v = {.path = label, .data = data, .size = size};
    HB_TRY(check_header(&v));
    unsigned tables = 0;
    for (size_t i = 0; i < v.header.e_shnum && !*defines; i++) {
        const char *section;
        HB_TRY(section_name(&v, i, &section));
        const Elf64_Shdr sh = section_at(&v, i);
        if (sh.sh_type != SHT_SYMTAB && strcmp(canonical_name(section), ".symtab"))
            continue;
        if (++tables > MAX_SYMBOL_TABLES)
            return hb_fail(HB_ERR_BAD_INPUT, "%s is corrupt: it declares more than %d symbol tables", v.path,
                           MAX_SYMBOL_TABLES);
        HB_TRY(find_in_table(&v, &sh, name, defines));
    }
    return HB_OK;
}
