#define _GNU_SOURCE /* dl_iterate_phdr, dladdr, RTLD_DEFAULT */
#include "bench/gpu/entry_points.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/core/diag.h"

/* The executable's GOT slots kept; a harness imports a few hundred. */
#define MAX_SLOTS 4096

#if defined(__x86_64__)
#define SLOT_RELOCATION(type) ((type) == R_X86_64_JUMP_SLOT || (type) == R_X86_64_GLOB_DAT)
#elif defined(__aarch64__)
#define SLOT_RELOCATION(type) ((type) == R_AARCH64_JUMP_SLOT || (type) == R_AARCH64_GLOB_DAT)
#else
#define SLOT_RELOCATION(type) 0
#endif

/* One table entry: its symbol and where in hb_entry_points it goes. */
typedef struct entry_name {
    const char *symbol;
    size_t offset;
} entry_name;

static const entry_name entries[] = {
    {"cudaEventRecord", offsetof(hb_entry_points, event_record)},
    {"cudaEventElapsedTime", offsetof(hb_entry_points, event_elapsed_time)},
    {"cudaDeviceSynchronize", offsetof(hb_entry_points, device_synchronize)},
    {"cudaStreamSynchronize", offsetof(hb_entry_points, stream_synchronize)},
    {"clock_gettime", offsetof(hb_entry_points, clock_gettime)},
    {"cublasGemmEx", offsetof(hb_entry_points, gemm_ex)},
    {"cublasLtMatmul", offsetof(hb_entry_points, lt_matmul)},
};
#define N_ENTRIES (sizeof entries / sizeof entries[0])

typedef struct got_slot {
    void **slot;        /* in the executable's GOT */
    void *value;        /* what it held at the seal */
    const char *symbol; /* in the executable's string table (read-only) */
} got_slot;

/* Everything the checks compare with, on pages made read-only at the seal:
 * candidate code must first make them writable again to change them. */
typedef struct sealed_state {
    hb_entry_points table;
    void *address[N_ENTRIES];                              /* each entry as resolved */
    unsigned char code[N_ENTRIES][HB_ENTRY_CODE_BYTES];    /* its first bytes */
    size_t n_slots;
    got_slot slots[MAX_SLOTS];
} sealed_state;

static sealed_state *sealed;
static pthread_once_t seal_once = PTHREAD_ONCE_INIT;
static hb_status seal_status = HB_OK;

/* dlsym into a function pointer's bytes (ISO C has no object-to-function cast). */
static void *resolve(const char *symbol)
{
    dlerror();
    return dlsym(RTLD_DEFAULT, symbol);
}

/* The dynamic section's pointers: glibc relocates them in place on most
 * architectures, but not all; an offset below the load address is one it did not. */
static uintptr_t dyn_address(ElfW(Addr) value, ElfW(Addr) base)
{
    return value < base ? (uintptr_t)(value + base) : (uintptr_t)value;
}

typedef struct dynamic_info {
    ElfW(Addr) base;
    const ElfW(Rela) *tables[2]; /* DT_JMPREL, DT_RELA */
    size_t sizes[2];             /* bytes */
    const ElfW(Sym) *symtab;
    const char *strtab;
} dynamic_info;

static void read_dynamic(const ElfW(Dyn) *dyn, ElfW(Addr) base, dynamic_info *info)
{
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_JMPREL: info->tables[0] = (const ElfW(Rela) *)dyn_address(dyn->d_un.d_ptr, base); break;
        case DT_PLTRELSZ: info->sizes[0] = dyn->d_un.d_val; break;
        case DT_RELA: info->tables[1] = (const ElfW(Rela) *)dyn_address(dyn->d_un.d_ptr, base); break;
        case DT_RELASZ: info->sizes[1] = dyn->d_un.d_val; break;
        case DT_SYMTAB: info->symtab = (const ElfW(Sym) *)dyn_address(dyn->d_un.d_ptr, base); break;
        case DT_STRTAB: info->strtab = (const char *)dyn_address(dyn->d_un.d_ptr, base); break;
        default: break;
        }
    }
}

static void keep_slots(const dynamic_info *info, sealed_state *s)
{
    for (int t = 0; t < 2; t++) {
        if (!info->tables[t])
            continue;
        const size_t n = info->sizes[t] / sizeof(ElfW(Rela));
        for (size_t i = 0; i < n && s->n_slots < MAX_SLOTS; i++) {
            const ElfW(Rela) *r = &info->tables[t][i];
            if (!SLOT_RELOCATION(ELF64_R_TYPE(r->r_info)) || ELF64_R_SYM(r->r_info) == 0)
                continue;
            got_slot *slot = &s->slots[s->n_slots++];
            slot->slot = (void **)(info->base + r->r_offset);
            slot->value = *slot->slot;
            slot->symbol = info->strtab + info->symtab[ELF64_R_SYM(r->r_info)].st_name;
        }
    }
}

/* The first object dl_iterate_phdr reports is the executable. */
static int executable_slots(struct dl_phdr_info *phdr, size_t size, void *data)
{
    (void)size;
    sealed_state *s = data;
    dynamic_info info = {.base = phdr->dlpi_addr};
    for (int i = 0; i < phdr->dlpi_phnum; i++)
        if (phdr->dlpi_phdr[i].p_type == PT_DYNAMIC)
            read_dynamic((const ElfW(Dyn) *)(phdr->dlpi_addr + phdr->dlpi_phdr[i].p_vaddr), phdr->dlpi_addr, &info);
    if (info.symtab && info.strtab)
        keep_slots(&info, s);
    return 1; /* the executable only */
}

static void seal(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    const size_t bytes = (sizeof(sealed_state) + (size_t)page - 1) / (size_t)page * (size_t)page;
    void *region = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) {
        seal_status = hb_fail(HB_ERR_INTERNAL, "mmap of %zu bytes for the sealed timing entry points failed: %s",
                              bytes, strerror(errno));
        return;
    }
    sealed_state *s = region;
    for (size_t i = 0; i < N_ENTRIES; i++) {
        void *address = resolve(entries[i].symbol);
        if (!address) {
            seal_status = hb_fail(HB_ERR_INTERNAL, "the dynamic linker does not resolve %s: the harness is not linked "
                                  "as it should be", entries[i].symbol);
            return;
        }
        s->address[i] = address;
        memcpy((char *)&s->table + entries[i].offset, &address, sizeof address);
        memcpy(s->code[i], address, HB_ENTRY_CODE_BYTES);
    }
    dl_iterate_phdr(executable_slots, s);
    if (mprotect(region, bytes, PROT_READ) != 0) {
        seal_status = hb_fail(HB_ERR_INTERNAL, "mprotect(PROT_READ) of the sealed timing entry points failed: %s",
                              strerror(errno));
        return;
    }
    sealed = s;
}

hb_status hb_entry_points_seal(void)
{
    pthread_once(&seal_once, seal);
    return seal_status;
}

const hb_entry_points *hb_entry(void)
{
    if (hb_entry_points_seal() != HB_OK || !sealed) {
        /* Without the table the harness cannot time at all: a harness bug, said once, loudly. */
        fprintf(stderr, "hgemm-bench: fatal: the timing entry points could not be sealed: %s\n", hb_last_error());
        _exit(HB_ERR_INTERNAL);
    }
    return &sealed->table;
}

double hb_entry_now_s(void)
{
    struct timespec ts;
    hb_entry()->clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* " (in /path/lib.so)" for where `address` lies, "" when unknown. */
static void where(const void *address, char *out, size_t size)
{
    Dl_info info;
    if (dladdr(address, &info) && info.dli_fname)
        snprintf(out, size, " (in %s)", info.dli_fname);
    else
        snprintf(out, size, " (in no loaded file: written memory)");
}

static int check_entries(const sealed_state *s, char *what, size_t size)
{
    char in[300];
    for (size_t i = 0; i < N_ENTRIES; i++) {
        void *now;
        memcpy(&now, (const char *)&s->table + entries[i].offset, sizeof now);
        void *resolved = resolve(entries[i].symbol);
        if (now != s->address[i] || resolved != s->address[i]) {
            void *moved = now != s->address[i] ? now : resolved;
            where(moved, in, sizeof in);
            snprintf(what, size, "the harness's entry for %s moved from %p to %p%s", entries[i].symbol,
                     s->address[i], moved, in);
            return 1;
        }
        if (memcmp(s->code[i], s->address[i], HB_ENTRY_CODE_BYTES) != 0) {
            where(s->address[i], in, sizeof in);
            snprintf(what, size, "the first %d bytes of %s at %p%s were rewritten (a detour into other code)",
                     HB_ENTRY_CODE_BYTES, entries[i].symbol, s->address[i], in);
            return 1;
        }
    }
    return 0;
}

static int check_slots(const sealed_state *s, char *what, size_t size)
{
    char in[300];
    for (size_t i = 0; i < s->n_slots; i++) {
        const got_slot *slot = &s->slots[i];
        void *now = *slot->slot;
        if (now == slot->value)
            continue;
        where(now, in, sizeof in);
        snprintf(what, size, "the harness executable's dynamic-link slot for %s was rewritten from %p to %p%s",
                 slot->symbol, slot->value, now, in);
        return 1;
    }
    return 0;
}

hb_status hb_entry_points_verify(int *changed, char *what, size_t what_size)
{
    HB_TRY(hb_entry_points_seal());
    what[0] = '\0';
    *changed = check_entries(sealed, what, what_size) || check_slots(sealed, what, what_size);
    return HB_OK;
}

size_t hb_entry_points_slot_count(void)
{
    return hb_entry_points_seal() == HB_OK && sealed ? sealed->n_slots : 0;
}

void **hb_entry_points_slot_of(const char *symbol)
{
    if (hb_entry_points_seal() != HB_OK || !sealed)
        return NULL;
    for (size_t i = 0; i < sealed->n_slots; i++)
        if (!strcmp(sealed->slots[i].symbol, symbol))
            return sealed->slots[i].slot;
    return NULL;
}
