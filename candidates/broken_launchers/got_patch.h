// BROKEN ON PURPOSE: the tool two broken launchers (rewrite_timer,
// slow_baseline) use to rewrite the harness's dynamic-link slots from a
// library constructor.  It exists so that the harness can be shown to catch
// it (docs/methodology.md, "Timers out of the candidate's reach").
// Host code only, C++17, no CUDA: tests/broken_launchers_cpu/ builds it with g++ and
// checks it on the CPU against a stub library (tests/broken_launchers_cpu.sh).
//
// What it does.  The main program (the first object dl_iterate_phdr reports,
// the one with an empty name) calls a shared library's function through a
// slot of its global offset table: a JUMP_SLOT relocation for a call through
// the PLT, a GLOB_DAT relocation for a call or an address taken through the
// GOT (-fno-plt, or a function pointer in a PIE).  Its PT_DYNAMIC segment
// names both relocation tables (DT_JMPREL of DT_PLTRELSZ bytes, DT_RELA of
// DT_RELASZ bytes; DT_REL/DT_RELSZ as well, for an ABI that uses REL),
// the dynamic symbol table (DT_SYMTAB) and its strings (DT_STRTAB).  Every
// relocation of those two types whose symbol has a wanted name gives a slot
// at load base + r_offset; the slot's page is made writable with mprotect
// (with -z now and -z relro, "full RELRO", the loader has made it read-only),
// the replacement is stored, and the page gets back exactly the protection
// /proc/self/maps gave it (or, if that cannot be read, the protection its
// segment and PT_GNU_RELRO imply).
//
// Address arithmetic: r_offset is a link-time address, so the slot is
// base + r_offset (base = dlpi_addr: the PIE's load address, 0 for a fixed
// executable).  The d_ptr values of PT_DYNAMIC are link-time addresses in
// the file, but glibc rewrites them in place to run-time addresses when the
// dynamic section is writable (musl and a read-only dynamic section do not):
// a value below a nonzero base is taken as link-time and the base is added.
#pragma once

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace got_patch {

#if defined(__x86_64__)
constexpr unsigned jump_slot = R_X86_64_JUMP_SLOT, glob_dat = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
constexpr unsigned jump_slot = R_AARCH64_JUMP_SLOT, glob_dat = R_AARCH64_GLOB_DAT;
#else
#error "got_patch.h knows the relocation types of x86-64 and AArch64 only"
#endif
static_assert(sizeof(void *) == 8, "got_patch.h reads 64-bit ELF only");

inline unsigned reloc_type(ElfW(Xword) info) { return (unsigned)ELF64_R_TYPE(info); }
inline size_t reloc_symbol(ElfW(Xword) info) { return (size_t)ELF64_R_SYM(info); }

// One symbol to redirect.  `slots` counts the slots rewritten (out).
struct target {
    const char *name;  // as the program's dynamic symbol table spells it, no version
    void *replacement; // the address every slot of `name` will hold
    int slots;
};

// The main program as the loader mapped it.
struct program {
    ElfW(Addr) base = 0;
    const ElfW(Phdr) *phdr = nullptr;
    ElfW(Half) phnum = 0;
    bool found = false;
};

inline int first_object(struct dl_phdr_info *info, size_t, void *data)
{
    auto *p = static_cast<program *>(data);
    // glibc and musl list the main program first, with an empty name; if the
    // first object is anything else, this is not a layout we know.
    if (!info->dlpi_name || !info->dlpi_name[0]) {
        p->base = info->dlpi_addr;
        p->phdr = info->dlpi_phdr;
        p->phnum = info->dlpi_phnum;
        p->found = true;
    }
    return 1; // the first object only
}

// What PT_DYNAMIC names, at run-time addresses (0 where absent).
struct dynamic_info {
    const ElfW(Sym) *symtab = nullptr;
    const char *strtab = nullptr;
    size_t strsz = 0, syment = sizeof(ElfW(Sym));
    uintptr_t jmprel = 0, rela = 0, rel = 0;
    size_t pltrelsz = 0, relasz = 0, relsz = 0;
    size_t relaent = sizeof(ElfW(Rela)), relent = sizeof(ElfW(Rel));
    ElfW(Sxword) pltrel = DT_RELA; // the type of the DT_JMPREL table
};

inline uintptr_t run_time(ElfW(Addr) base, ElfW(Addr) value)
{
    return base && value < base ? base + value : value;
}

inline bool read_dynamic(const program &p, dynamic_info *d, char *why, size_t why_size)
{
    const ElfW(Dyn) *dyn = nullptr;
    for (ElfW(Half) i = 0; i < p.phnum; i++)
        if (p.phdr[i].p_type == PT_DYNAMIC)
            dyn = reinterpret_cast<const ElfW(Dyn) *>(p.base + p.phdr[i].p_vaddr);
    if (!dyn) {
        snprintf(why, why_size, "the main program has no PT_DYNAMIC (a static executable)");
        return false;
    }
    for (; dyn->d_tag != DT_NULL; dyn++) {
        const ElfW(Addr) ptr = dyn->d_un.d_ptr;
        const size_t val = (size_t)dyn->d_un.d_val;
        switch (dyn->d_tag) {
        case DT_SYMTAB: d->symtab = reinterpret_cast<const ElfW(Sym) *>(run_time(p.base, ptr)); break;
        case DT_STRTAB: d->strtab = reinterpret_cast<const char *>(run_time(p.base, ptr)); break;
        case DT_STRSZ: d->strsz = val; break;
        case DT_SYMENT: d->syment = val; break;
        case DT_JMPREL: d->jmprel = run_time(p.base, ptr); break;
        case DT_PLTRELSZ: d->pltrelsz = val; break;
        case DT_PLTREL: d->pltrel = (ElfW(Sxword))val; break;
        case DT_RELA: d->rela = run_time(p.base, ptr); break;
        case DT_RELASZ: d->relasz = val; break;
        case DT_RELAENT: d->relaent = val; break;
        case DT_REL: d->rel = run_time(p.base, ptr); break;
        case DT_RELSZ: d->relsz = val; break;
        case DT_RELENT: d->relent = val; break;
        default: break;
        }
    }
    if (!d->symtab || !d->strtab || !d->strsz || !d->syment || !d->relaent || !d->relent) {
        snprintf(why, why_size, "the main program's PT_DYNAMIC lacks a symbol or string table");
        return false;
    }
    return true;
}

// The protection of the page holding `address`, from /proc/self/maps; -1 if unknown.
inline int mapped_protection(uintptr_t address)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return -1;
    char line[512];
    int prot = -1;
    while (prot < 0 && fgets(line, sizeof line, maps)) {
        unsigned long start = 0, end = 0;
        char perms[8] = "";
        if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 && address >= start && address < end)
            prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
                   (perms[2] == 'x' ? PROT_EXEC : 0);
        // a line longer than the buffer: skip its rest
        while (!strchr(line, '\n') && fgets(line, sizeof line, maps))
            ;
    }
    fclose(maps);
    return prot;
}

// The protection the loader leaves on `address` of the program, from its
// segments: its PT_LOAD's flags, read-only inside PT_GNU_RELRO's pages.
inline int segment_protection(const program &p, uintptr_t address, uintptr_t page)
{
    int prot = PROT_READ;
    for (ElfW(Half) i = 0; i < p.phnum; i++) {
        const ElfW(Phdr) &h = p.phdr[i];
        const uintptr_t start = p.base + h.p_vaddr, end = start + h.p_memsz;
        if (h.p_type == PT_LOAD && address >= start && address < end)
            prot = (h.p_flags & PF_R ? PROT_READ : 0) | (h.p_flags & PF_W ? PROT_WRITE : 0) |
                   (h.p_flags & PF_X ? PROT_EXEC : 0);
    }
    for (ElfW(Half) i = 0; i < p.phnum; i++) {
        const ElfW(Phdr) &h = p.phdr[i];
        // the loader protects whole pages: from the one holding the start to the one holding the end, exclusive
        const uintptr_t start = (p.base + h.p_vaddr) & ~(page - 1), end = (p.base + h.p_vaddr + h.p_memsz) & ~(page - 1);
        if (h.p_type == PT_GNU_RELRO && address >= start && address < end)
            prot &= ~PROT_WRITE;
    }
    return prot;
}

// Stores `value` into `slot`, lifting a read-only protection for the store
// and putting back the page's protection after it.
inline bool write_slot(const program &p, void **slot, void *value, char *why, size_t why_size)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t address = (uintptr_t)slot, start = address & ~(page - 1);
    int prot = mapped_protection(address);
    if (prot < 0)
        prot = segment_protection(p, address, page);
    const bool lift = !(prot & PROT_WRITE);
    if (lift && mprotect((void *)start, page, prot | PROT_WRITE) != 0) {
        snprintf(why, why_size, "mprotect of the slot's page at %#lx failed", (unsigned long)start);
        return false;
    }
    __atomic_store_n(slot, value, __ATOMIC_SEQ_CST);
    if (lift && mprotect((void *)start, page, prot) != 0) {
        snprintf(why, why_size, "putting back the protection of the page at %#lx failed", (unsigned long)start);
        return false;
    }
    return true;
}

// Whether [address, address + 8) lies inside one of the program's PT_LOAD segments.
inline bool inside_program(const program &p, uintptr_t address)
{
    for (ElfW(Half) i = 0; i < p.phnum; i++) {
        const ElfW(Phdr) &h = p.phdr[i];
        const uintptr_t start = p.base + h.p_vaddr;
        if (h.p_type == PT_LOAD && address >= start && address + sizeof(void *) <= start + h.p_memsz)
            return true;
    }
    return false;
}

// Rewrites the slots of one relocation table (Rel or Rela: only r_offset and
// r_info are read).  False, with `why`, on a failed store.
template <typename Reloc>
bool patch_table(const program &p, const dynamic_info &d, uintptr_t table, size_t bytes, size_t entry,
                 target *targets, size_t count, char *why, size_t why_size)
{
    if (!table || !bytes || entry < sizeof(Reloc))
        return true;
    for (size_t offset = 0; offset + sizeof(Reloc) <= bytes; offset += entry) {
        const Reloc *r = reinterpret_cast<const Reloc *>(table + offset);
        const unsigned type = reloc_type(r->r_info);
        const size_t sym = reloc_symbol(r->r_info);
        if ((type != jump_slot && type != glob_dat) || sym == 0)
            continue;
        const ElfW(Sym) *s =
            reinterpret_cast<const ElfW(Sym) *>(reinterpret_cast<const char *>(d.symtab) + sym * d.syment);
        if (s->st_name >= d.strsz)
            continue;
        const char *name = d.strtab + s->st_name;
        for (size_t t = 0; t < count; t++) {
            if (strcmp(name, targets[t].name))
                continue;
            const uintptr_t address = p.base + r->r_offset;
            if (!inside_program(p, address))
                continue;
            void **slot = reinterpret_cast<void **>(address);
            if (*slot != targets[t].replacement && !write_slot(p, slot, targets[t].replacement, why, why_size))
                return false;
            targets[t].slots++;
        }
    }
    return true;
}

// Rewrites every JUMP_SLOT and GLOB_DAT slot of the main program bound to one
// of `targets`.  Returns the slots rewritten (0: the program has none for
// these names: it does not call them through its dynamic links), or -1 with
// `why` when the program cannot be read or a store failed (some slots may
// then hold the replacement already).
inline int patch_main_program(target *targets, size_t count, char *why, size_t why_size)
{
    snprintf(why, why_size, "%s", "");
    for (size_t t = 0; t < count; t++)
        targets[t].slots = 0;
    program p;
    dl_iterate_phdr(first_object, &p);
    if (!p.found) {
        snprintf(why, why_size, "dl_iterate_phdr did not report the main program first");
        return -1;
    }
    dynamic_info d;
    if (!read_dynamic(p, &d, why, why_size))
        return -1;
    bool ok = true;
    if (d.pltrel == DT_RELA)
        ok = patch_table<ElfW(Rela)>(p, d, d.jmprel, d.pltrelsz, sizeof(ElfW(Rela)), targets, count, why, why_size);
    else
        ok = patch_table<ElfW(Rel)>(p, d, d.jmprel, d.pltrelsz, sizeof(ElfW(Rel)), targets, count, why, why_size);
    ok = ok && patch_table<ElfW(Rela)>(p, d, d.rela, d.relasz, d.relaent, targets, count, why, why_size);
    ok = ok && patch_table<ElfW(Rel)>(p, d, d.rel, d.relsz, d.relent, targets, count, why, why_size);
    if (!ok)
        return -1;
    int slots = 0;
    for (size_t t = 0; t < count; t++)
        slots += targets[t].slots;
    if (!slots)
        snprintf(why, why_size, "the main program has no JUMP_SLOT or GLOB_DAT relocation of these symbols");
    return slots;
}

// --- the real functions ---------------------------------------------------------------------

struct library_search {
    const char *prefix; // a file name's start, "libcudart.so"
    char path[4096];
};

inline int find_library(struct dl_phdr_info *info, size_t, void *data)
{
    auto *s = static_cast<library_search *>(data);
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strncmp(base, s->prefix, strlen(s->prefix)))
        return 0;
    snprintf(s->path, sizeof s->path, "%s", name);
    return 1;
}

// `name` as the loaded library whose file name starts with `prefix` defines
// it (looked up in that library's own scope, so never in the main program's
// slots); dlsym(RTLD_NEXT) if no such library is loaded.  NULL when not found
// or when the answer is `avoid` (the wrapper itself).
inline void *real_function(const char *prefix, const char *name, const void *avoid)
{
    library_search s{prefix, ""};
    void *found = nullptr;
    dl_iterate_phdr(find_library, &s);
    if (s.path[0]) {
        void *library = dlopen(s.path, RTLD_LAZY | RTLD_NOLOAD);
        if (library) {
            found = dlsym(library, name);
            dlclose(library); // RTLD_NOLOAD took a reference; the library stays loaded
        }
    }
    if (!found)
        found = dlsym(RTLD_NEXT, name);
    return found == avoid ? nullptr : found;
}

} // namespace got_patch
