/* Tests of the module-state reading (bench/candidate/cubin_elf.c) and its
 * judgement (bench/result/module_state.c): CPU only.  The cubins come from
 * tests/data/<name>.cu, built by make into $HB_BUILD/tests/data/ for each
 * architecture of CUDA_ARCHS; the ELF files of the corner cases are written
 * here, so the repository holds no binary. */
#define _POSIX_C_SOURCE 200809L

#include <elf.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/cubin_elf.h"
#include "bench/core/diag.h"
#include "bench/core/rng.h"
#include "bench/result/module_state.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- helpers ------------------------------------------------------------------------ */

/* The built cubins of fixture `name`, one per architecture; at least one must exist. */
static glob_t fixture_cubins(const char *name)
{
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/tests/data/%s.sm_*.cubin", hb_test_build_dir(), name);
    glob_t found;
    if (glob(pattern, 0, NULL, &found) != 0 || found.gl_pathc == 0)
        fail_msg("no %s: build the test fixtures with make test (or make %s/tests/data/%s.sm_90.cubin)", pattern,
                 hb_test_build_dir(), name);
    return found;
}

static hb_module_state read_ok(const char *path)
{
    hb_module_state s;
    hb_status status = hb_cubin_module_state(path, &s);
    if (status != HB_OK)
        fail_msg("%s: %s", path, hb_last_error());
    assert_int_equal(s.scanned, 1);
    return s;
}

static void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

static unsigned char *read_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long length = ftell(f);
    assert_true(length > 0);
    rewind(f);
    unsigned char *data = malloc((size_t)length);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)length, f), (size_t)length);
    fclose(f);
    *size = (size_t)length;
    return data;
}

static void expect_error(const char *path, hb_status expected, const char *message_part)
{
    hb_module_state s;
    memset(&s, 0x5a, sizeof s);
    assert_int_equal(hb_cubin_module_state(path, &s), expected);
    assert_int_equal(s.scanned, 0);
    if (!strstr(hb_last_error(), message_part))
        fail_msg("expected '%s' in: %s", message_part, hb_last_error());
    if (!strstr(hb_last_error(), path))
        fail_msg("the message does not name the file %s: %s", path, hb_last_error());
}

/* --- cubins nvcc built -------------------------------------------------------------- */

/* A 64 KiB __device__ array reads as at least that, names its variable, and is refused. */
static void test_module_state_reads_a_64k_device_array(void **state)
{
    (void)state;
    glob_t cubins = fixture_cubins("module_global_64k");
    for (size_t i = 0; i < cubins.gl_pathc; i++) {
        hb_module_state s = read_ok(cubins.gl_pathv[i]);
        /* 64 KiB in .nv.global plus the 16-byte initialised array in .nv.global.init */
        assert_true(s.global_bytes >= 65536);
        assert_true(s.global_bytes < 65536 + 1024);
        assert_string_equal(s.largest_symbol, "g_kept");
        assert_int_equal(s.largest_bytes, 65536);
        assert_int_equal(s.device_malloc, 0);
        char reason[512];
        assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 1);
        char bytes[32];
        snprintf(bytes, sizeof bytes, "%llu B", (unsigned long long)s.global_bytes);
        assert_non_null(strstr(reason, bytes));
        assert_non_null(strstr(reason, "limit of 1024 B"));
        assert_non_null(strstr(reason, "g_kept"));
        assert_non_null(strstr(reason, "between calls"));
    }
    globfree(&cubins);
}

/* No __device__ variable: 0 bytes; its static __shared__ array is per block and not counted. */
static void test_module_state_plain_kernel_reads_zero(void **state)
{
    (void)state;
    glob_t cubins = fixture_cubins("module_plain");
    for (size_t i = 0; i < cubins.gl_pathc; i++) {
        hb_module_state s = read_ok(cubins.gl_pathv[i]);
        assert_int_equal(s.global_bytes, 0);
        assert_int_equal(s.device_malloc, 0);
        assert_string_equal(s.largest_symbol, "");
        char reason[512];
        assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 0);
        assert_string_equal(reason, "");
    }
    globfree(&cubins);
}

/* malloc() in device code: flagged, though its module global is only 8 bytes. */
static void test_module_state_flags_device_malloc(void **state)
{
    (void)state;
    glob_t cubins = fixture_cubins("module_malloc");
    for (size_t i = 0; i < cubins.gl_pathc; i++) {
        hb_module_state s = read_ok(cubins.gl_pathv[i]);
        assert_int_equal(s.device_malloc, 1);
        assert_string_equal(s.malloc_symbol, "malloc");
        assert_int_equal(s.global_bytes, 8); /* the pointer g_heap_block */
        char reason[512];
        assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 1);
        assert_non_null(strstr(reason, "malloc"));
        assert_non_null(strstr(reason, "between calls"));
    }
    globfree(&cubins);
}

/* The sample candidates keep nothing between calls: they must never be refused. */
static void test_module_state_samples_pass(void **state)
{
    (void)state;
    const char *const samples[] = {"sample_mma/hgemm_mma_pipelined", "sample_simple/hgemm_simple"};
    for (size_t k = 0; k < 2; k++) {
        char pattern[1024];
        snprintf(pattern, sizeof pattern, "%s/candidates/%s.sm_*.cubin", hb_test_build_dir(), samples[k]);
        glob_t found;
        assert_int_equal(glob(pattern, 0, NULL, &found), 0);
        for (size_t i = 0; i < found.gl_pathc; i++) {
            hb_module_state s = read_ok(found.gl_pathv[i]);
            assert_int_equal(s.global_bytes, 0); /* sample_mma's 1 KiB of static shared memory is not counted */
            assert_int_equal(s.device_malloc, 0);
        }
        globfree(&found);
    }
}

/* --- files that are not cubins ------------------------------------------------------- */

static void test_module_state_refuses_non_elf_files(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-elf", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/kernel.ptx", dir);
    const char ptx[] = "//\n// Generated by NVIDIA NVVM Compiler\n.version 8.5\n.target sm_90\n";
    write_bytes(path, ptx, sizeof ptx - 1);
    expect_error(path, HB_ERR_UNSUPPORTED, "not an ELF cubin");
    write_bytes(path, "", 0); /* empty */
    expect_error(path, HB_ERR_UNSUPPORTED, "not an ELF cubin");
    snprintf(path, sizeof path, "%s/missing.cubin", dir);
    expect_error(path, HB_ERR_BAD_INPUT, "cannot open");
    expect_error(dir, HB_ERR_BAD_INPUT, dir); /* a folder: cannot be read as a file */
    hb_test_remove_tree(dir);
    /* A host object: ELF64, but not for the GPU. */
    char object[1024];
    snprintf(object, sizeof object, "%s/obj/bench/core/status.o", hb_test_build_dir());
    expect_error(object, HB_ERR_BAD_INPUT, "not a CUDA cubin");
}

/* Every prefix of a real cubin: an error, never a crash or a figure (its
 * section and program headers come last, so no proper prefix is complete). */
static void test_module_state_truncated_cubins(void **state)
{
    (void)state;
    glob_t cubins = fixture_cubins("module_global_64k");
    size_t size;
    unsigned char *data = read_bytes(cubins.gl_pathv[0], &size);
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-elf", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/cut.cubin", dir);
    for (size_t length = 1; length < size; length += length < 128 ? 1 : 13) {
        write_bytes(path, data, length);
        hb_module_state s;
        hb_status status = hb_cubin_module_state(path, &s);
        if (status == HB_OK)
            fail_msg("the first %zu of %zu bytes read as a cubin", length, size);
        assert_int_equal(s.scanned, 0);
        assert_int_equal(status, length < SELFMAG ? HB_ERR_UNSUPPORTED : HB_ERR_BAD_INPUT);
        assert_non_null(strstr(hb_last_error(), path));
    }
    write_bytes(path, data, size - 1);
    expect_error(path, HB_ERR_BAD_INPUT, "truncated");
    write_bytes(path, data, 40); /* shorter than the ELF header */
    expect_error(path, HB_ERR_BAD_INPUT, "truncated");
    free(data);
    globfree(&cubins);
    hb_test_remove_tree(dir);
}

/* Random bytes changed in a real cubin: any answer but a crash. */
static void test_module_state_survives_corruption(void **state)
{
    (void)state;
    glob_t cubins = fixture_cubins("module_malloc");
    size_t size;
    unsigned char *data = read_bytes(cubins.gl_pathv[0], &size);
    unsigned char *copy = malloc(size);
    assert_non_null(copy);
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-elf", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/bent.cubin", dir);
    hb_rng rng;
    hb_rng_seed(&rng, 2024);
    for (int trial = 0; trial < 300; trial++) {
        memcpy(copy, data, size);
        const size_t span = trial % 2 ? size : sizeof(Elf64_Ehdr); /* every other trial: the header, where offsets live */
        for (int flips = 0; flips < 4; flips++)
            copy[hb_rng_next(&rng) % span] ^= (unsigned char)(1u << (hb_rng_next(&rng) % 8));
        if (trial % 3 == 0) /* a byte of the section table at the end */
            copy[size - 1 - hb_rng_next(&rng) % (size < 1024 ? size : 1024)] = (unsigned char)hb_rng_next(&rng);
        write_bytes(path, copy, size);
        hb_module_state s;
        hb_status status = hb_cubin_module_state(path, &s);
        assert_int_equal(s.scanned, status == HB_OK);
    }
    free(copy);
    free(data);
    globfree(&cubins);
    hb_test_remove_tree(dir);
}

/* --- ELF files written here: the layouts nvcc makes for other targets ------------------ */

typedef struct section_spec {
    const char *name;
    Elf64_Word type;
    Elf64_Xword flags;
    Elf64_Xword size;
} section_spec;

typedef struct symbol_spec {
    const char *name;
    unsigned char type;  /* STT_OBJECT, STT_FUNC, STT_LOPROC (an -rdc variable) */
    Elf64_Half section;  /* index into the specs + 4 (sections 0..3 are null, .shstrtab, .strtab, .symtab); 0: undefined */
    Elf64_Xword size;
} symbol_spec;

typedef struct elf_image {
    unsigned char bytes[8192];
    size_t size;
} elf_image;

static size_t add_string(char *table, size_t *used, const char *s)
{
    size_t at = *used;
    strcpy(table + at, s);
    *used += strlen(s) + 1;
    return at;
}

/* An ELF64 cubin of EM_CUDA: null, .shstrtab, .strtab, .symtab, then `specs`. */
static void build_elf(elf_image *img, const section_spec *specs, size_t n, const symbol_spec *syms, size_t nsyms)
{
    memset(img, 0, sizeof *img);
    char names[1024] = "", strings[1024] = "";
    size_t names_used = 1, strings_used = 1;
    Elf64_Shdr sh[16];
    memset(sh, 0, sizeof sh);
    sh[1].sh_name = (Elf64_Word)add_string(names, &names_used, ".shstrtab");
    sh[2].sh_name = (Elf64_Word)add_string(names, &names_used, ".strtab");
    sh[3].sh_name = (Elf64_Word)add_string(names, &names_used, ".symtab");
    for (size_t i = 0; i < n; i++)
        sh[4 + i] = (Elf64_Shdr){.sh_name = (Elf64_Word)add_string(names, &names_used, specs[i].name),
                                 .sh_type = specs[i].type, .sh_flags = specs[i].flags, .sh_size = specs[i].size};
    Elf64_Sym sym[16];
    memset(sym, 0, sizeof sym);
    for (size_t i = 0; i < nsyms; i++)
        sym[1 + i] = (Elf64_Sym){.st_name = (Elf64_Word)add_string(strings, &strings_used, syms[i].name),
                                 .st_info = ELF64_ST_INFO(STB_LOCAL, syms[i].type), .st_shndx = syms[i].section,
                                 .st_size = syms[i].size};
    size_t at = sizeof(Elf64_Ehdr);
    sh[1] = (Elf64_Shdr){.sh_name = sh[1].sh_name, .sh_type = SHT_STRTAB, .sh_offset = at, .sh_size = names_used};
    memcpy(img->bytes + at, names, names_used);
    at += names_used;
    sh[2] = (Elf64_Shdr){.sh_name = sh[2].sh_name, .sh_type = SHT_STRTAB, .sh_offset = at, .sh_size = strings_used};
    memcpy(img->bytes + at, strings, strings_used);
    at = (at + strings_used + 7) & ~(size_t)7;
    const size_t sym_bytes = (1 + nsyms) * sizeof(Elf64_Sym);
    sh[3] = (Elf64_Shdr){.sh_name = sh[3].sh_name, .sh_type = SHT_SYMTAB, .sh_offset = at, .sh_size = sym_bytes,
                         .sh_link = 2, .sh_entsize = sizeof(Elf64_Sym)};
    memcpy(img->bytes + at, sym, sym_bytes);
    at += sym_bytes;
    Elf64_Ehdr h = {.e_type = ET_EXEC, .e_machine = EM_CUDA, .e_version = EV_CURRENT, .e_shoff = at,
                    .e_ehsize = sizeof(Elf64_Ehdr), .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = (Elf64_Half)(4 + n),
                    .e_shstrndx = 1};
    memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    memcpy(img->bytes, &h, sizeof h);
    memcpy(img->bytes + at, sh, (4 + n) * sizeof(Elf64_Shdr));
    img->size = at + (4 + n) * sizeof(Elf64_Shdr);
}

#define WA (SHF_WRITE | SHF_ALLOC)
#define SHT_CUDA_NOBITS (SHT_LOPROC + 7)   /* .nv.global in an -rdc cubin */
#define SHT_MERC_GLOBAL_INIT (SHT_LOPROC + 8)

/* The sections of an sm_100 cubin built with -rdc, as readelf showed them. */
static const section_spec blackwell_like[] = {
    {".nv.global.init", SHT_PROGBITS, WA, 600},
    {".nv.merc.nv.global.init", SHT_MERC_GLOBAL_INIT, WA | SHF_MASKPROC, 600}, /* the same 600 bytes */
    {".nv.global", SHT_CUDA_NOBITS, WA, 300},
    {".nv.shared.k", SHT_NOBITS, WA | SHF_INFO_LINK, 4096},          /* per block */
    {".nv.shared.reserved.0", SHT_NOBITS, WA, 64},                    /* per block */
    {".nv.merc.nv.shared.reserved.0", SHT_LOPROC + 0x15, WA | SHF_MASKPROC, 64},
    {".nv.constant3", SHT_PROGBITS, SHF_ALLOC, 2000},                 /* __constant__: read-only */
    {".text.k", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 512},
};
#define BLACKWELL_COUNT (sizeof blackwell_like / sizeof blackwell_like[0])

static const symbol_spec blackwell_symbols[] = {
    {"table", STT_OBJECT, 4, 600}, {"cache", STT_OBJECT, 6, 300}, {"smem", STT_OBJECT, 7, 4096},
    {"cst", STT_OBJECT, 10, 2000}, {"k", STT_FUNC, 11, 512},
};

static hb_module_state read_image(const elf_image *img, const char *dir, hb_status *status)
{
    char path[700];
    snprintf(path, sizeof path, "%s/made.cubin", dir);
    write_bytes(path, img->bytes, img->size);
    hb_module_state s;
    *status = hb_cubin_module_state(path, &s);
    return s;
}

/* Counted by flags, whatever the type; mirrors once; shared and constant memory never. */
static void test_module_state_counts_each_writable_section_once(void **state)
{
    (void)state;
    char dir[512];
    hb_test_make_temp_dir("hb-elf", dir, sizeof dir);
    static elf_image img;
    hb_status status;
    build_elf(&img, blackwell_like, BLACKWELL_COUNT, blackwell_symbols, 5);
    hb_module_state s = read_image(&img, dir, &status);
    assert_int_equal(status, HB_OK);
    assert_int_equal(s.global_bytes, 600 + 300);
    assert_string_equal(s.largest_symbol, "table"); /* not cst (constant) nor smem (shared), though larger */
    assert_int_equal(s.largest_bytes, 600);
    assert_int_equal(s.device_malloc, 0);
    char reason[512];
    assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 0); /* 900 B <= 1024 B */

    /* In an -rdc cubin a variable's symbol has a processor-specific type (13), not STT_OBJECT. */
    const symbol_spec rdc_symbols[] = {{"k", STT_FUNC, 11, 5000}, {"rdc_var", STT_LOPROC, 6, 300}};
    build_elf(&img, blackwell_like, BLACKWELL_COUNT, rdc_symbols, 2);
    s = read_image(&img, dir, &status);
    assert_int_equal(status, HB_OK);
    assert_string_equal(s.largest_symbol, "rdc_var"); /* not the function k, though larger */

    /* A mirror larger than its original: the larger counts, once. */
    section_spec grown[BLACKWELL_COUNT];
    memcpy(grown, blackwell_like, sizeof grown);
    grown[1].size = 700;
    build_elf(&img, grown, BLACKWELL_COUNT, blackwell_symbols, 5);
    s = read_image(&img, dir, &status);
    assert_int_equal(status, HB_OK);
    assert_int_equal(s.global_bytes, 700 + 300);

    /* Over the limit by one byte: refused; and device-side cudaMalloc is a heap allocator too. */
    grown[1].size = 725;
    const symbol_spec with_cdp[] = {{"table", STT_OBJECT, 4, 600}, {"__cudaCDP2Malloc", STT_FUNC, 0, 0}};
    build_elf(&img, grown, BLACKWELL_COUNT, with_cdp, 2);
    s = read_image(&img, dir, &status);
    assert_int_equal(status, HB_OK);
    assert_int_equal(s.global_bytes, 1025);
    assert_int_equal(s.device_malloc, 1);
    assert_string_equal(s.malloc_symbol, "__cudaCDP2Malloc");
    assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 1);
    assert_non_null(strstr(reason, "1025 B"));
    assert_non_null(strstr(reason, "device-side malloc"));
    hb_test_remove_tree(dir);
}

/* Inconsistent headers: named errors. */
static void test_module_state_inconsistent_elf(void **state)
{
    (void)state;
    char dir[512];
    hb_test_make_temp_dir("hb-elf", dir, sizeof dir);
    static elf_image img;
    hb_status status;
    Elf64_Ehdr h;

    build_elf(&img, blackwell_like, BLACKWELL_COUNT, blackwell_symbols, 5);
    memcpy(&h, img.bytes, sizeof h);
    h.e_shstrndx = h.e_shnum; /* no such section */
    memcpy(img.bytes, &h, sizeof h);
    read_image(&img, dir, &status);
    assert_int_equal(status, HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), "section-name table"));

    build_elf(&img, blackwell_like, BLACKWELL_COUNT, blackwell_symbols, 5);
    img.bytes[EI_CLASS] = ELFCLASS32;
    read_image(&img, dir, &status);
    assert_int_equal(status, HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), "64-bit"));

    /* a symbol whose name points past its string table */
    build_elf(&img, blackwell_like, BLACKWELL_COUNT, blackwell_symbols, 5);
    memcpy(&h, img.bytes, sizeof h);
    Elf64_Shdr symtab;
    memcpy(&symtab, img.bytes + h.e_shoff + 3 * sizeof symtab, sizeof symtab);
    Elf64_Sym sym;
    memcpy(&sym, img.bytes + symtab.sh_offset + sizeof sym, sizeof sym);
    sym.st_name = 60000;
    memcpy(img.bytes + symtab.sh_offset + sizeof sym, &sym, sizeof sym);
    read_image(&img, dir, &status);
    assert_int_equal(status, HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), "symbol 1"));

    /* a symbol table whose bytes lie past the end of the file */
    build_elf(&img, blackwell_like, BLACKWELL_COUNT, blackwell_symbols, 5);
    symtab.sh_offset = img.size;
    memcpy(img.bytes + h.e_shoff + 3 * sizeof symtab, &symtab, sizeof symtab);
    read_image(&img, dir, &status);
    assert_int_equal(status, HB_ERR_BAD_INPUT);
    assert_non_null(strstr(hb_last_error(), "symbol table"));
    hb_test_remove_tree(dir);
}

/* --- the judgement ------------------------------------------------------------------------ */

static void test_module_state_limit(void **state)
{
    (void)state;
    char reason[512];
    hb_module_state s = {.scanned = 1, .global_bytes = HB_MODULE_STATE_LIMIT};
    assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 0); /* at the limit: allowed */
    s.global_bytes++;
    assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 1);
    assert_non_null(strstr(reason, "1025 B"));
    assert_null(strstr(reason, "largest")); /* no variable named: no "(largest: ...)" */
    s.scanned = 0; /* not read (an A/A run has no cubin): nothing to judge */
    assert_int_equal(hb_module_state_refused(&s, reason, sizeof reason), 0);
    hb_module_state heap = {.scanned = 1, .global_bytes = 8, .device_malloc = 1, .malloc_symbol = "malloc"};
    assert_int_equal(hb_module_state_refused(&heap, reason, sizeof reason), 1);
    assert_non_null(strstr(reason, "allocator malloc"));
    /* a short buffer: cut, still terminated */
    char tiny[16];
    assert_int_equal(hb_module_state_refused(&heap, tiny, sizeof tiny), 1);
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

hb_test_list hb_module_state_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_module_state_reads_a_64k_device_array),
        cmocka_unit_test(test_module_state_plain_kernel_reads_zero),
        cmocka_unit_test(test_module_state_flags_device_malloc),
        cmocka_unit_test(test_module_state_samples_pass),
        cmocka_unit_test(test_module_state_refuses_non_elf_files),
        cmocka_unit_test(test_module_state_truncated_cubins),
        cmocka_unit_test(test_module_state_survives_corruption),
        cmocka_unit_test(test_module_state_counts_each_writable_section_once),
        cmocka_unit_test(test_module_state_inconsistent_elf),
        cmocka_unit_test(test_module_state_limit),
    };
    return HB_TEST_LIST(tests);
}
