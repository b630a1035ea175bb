/* Tests of the code checks (bench/core/code_pages.c) on this process's own
 * code: each case seals, changes something (a byte of a libm function, the
 * same byte put back, its page made writable, a file mapped over it, new
 * code mapped elsewhere) and verifies, in a forked child, so the test
 * process's own code is never touched.  The child prints what verify said;
 * the test reads it.  CPU only. */
#define _GNU_SOURCE /* dladdr, MAP_ANONYMOUS */

#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/core/code_pages.h"
#include "bench/core/memory_maps.h"
#include "bench/core/process.h"
#include "bench/report/summary_columns.h"
#include "bench/result/config_result.h"
#include "tests/test_registry.h"

/* A libm function no case calls (not an IFUNC, so dladdr names it): one
 * of its bytes is changed, 8 bytes in. */
#define TARGET "remquo"
#define TARGET_BYTE 8

static unsigned char *target(void)
{
    void *libm = dlopen("libm.so.6", RTLD_NOW);
    void *symbol = libm ? dlsym(libm, TARGET) : NULL;
    unsigned char *address;
    memcpy(&address, &symbol, sizeof address);
    return address ? address + TARGET_BYTE : NULL;
}

static unsigned char *page_of(unsigned char *address)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    return (unsigned char *)((uintptr_t)address / page * page);
}

static int set_prot(unsigned char *address, int prot)
{
    return mprotect(page_of(address), (size_t)sysconf(_SC_PAGESIZE), prot);
}

/* --- what each child does after the seal; 0 when it did it ------------------------ */

static int change_nothing(unsigned char *byte)
{
    (void)byte;
    return 0;
}

static int flip_byte(unsigned char *byte)
{
    if (set_prot(byte, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return 1;
    *byte ^= 0xff;
    return set_prot(byte, PROT_READ | PROT_EXEC); /* the protection as sealed: only the bytes tell */
}

static int flip_and_restore(unsigned char *byte)
{
    if (set_prot(byte, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return 1;
    volatile unsigned char *written = byte; /* two real writes: the compiler may not fold them away */
    *written ^= 0xff;
    *written ^= 0xff;
    return set_prot(byte, PROT_READ | PROT_EXEC);
}

/* The same byte written back through /proc/self/mem, as a debugger would. */
static int write_through_proc_mem(unsigned char *byte)
{
    int fd = open("/proc/self/mem", O_RDWR);
    if (fd < 0)
        return 1;
    unsigned char same = *byte;
    ssize_t wrote = pwrite(fd, &same, 1, (off_t)(uintptr_t)byte);
    close(fd);
    return wrote != 1;
}

static int make_writable(unsigned char *byte)
{
    return set_prot(byte, PROT_READ | PROT_WRITE);
}

/* A file's page mapped over the function's, executable as it was. */
static int map_file_over(unsigned char *byte)
{
    char path[] = "/tmp/hb-code-pages-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    unlink(path);
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int failed = ftruncate(fd, (off_t)page) != 0 ||
                 mmap(page_of(byte), page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED;
    close(fd);
    return failed;
}

/* Code that came after the seal: anonymous executable memory, and a
 * library loaded now (libz where there is one). */
static int map_new_code(unsigned char *byte)
{
    (void)byte;
    void *code = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED)
        return 1;
    dlopen("libz.so.1", RTLD_NOW); /* absent: the anonymous mapping is the case */
    return 0;
}

typedef struct change {
    int (*make)(unsigned char *byte);
} change;

/* Seals, makes the change, verifies; prints
 * "changed|table's prot|ranges|bytes|checks|what". */
static int child_checks(void *context)
{
    const change *c = context;
    unsigned char *byte = target();
    if (!byte)
        return 3;
    hb_code_pages *sealed;
    if (hb_code_pages_seal(&sealed) != HB_OK)
        return 4;
    if (c->make(byte) != 0)
        return 5;
    int changed = 0;
    char what[700];
    if (hb_code_pages_verify(sealed, &changed, what, sizeof what) != HB_OK)
        return 6;
    hb_memory_maps maps;
    if (hb_memory_maps_read(&maps) != HB_OK)
        return 7;
    const hb_memory_map *table = hb_memory_maps_find(&maps, (uintptr_t)hb_code_pages_table(sealed));
    hb_code_pages_cost cost = hb_code_pages_cost_of(sealed);
    printf("%d|%u|%zu|%zu|%u|%s\n", changed, table ? table->prot : 99u, cost.ranges, cost.bytes, cost.checks, what);
    fflush(stdout);
    return 0;
}

typedef struct outcome {
    int changed;
    unsigned table_prot;
    size_t ranges, bytes;
    unsigned checks;
    char what[700];
} outcome;

static void run_case(int (*make)(unsigned char *), outcome *out)
{
    change c = {make};
    char text[1024];
    hb_capture capture = {text, sizeof text, 0, 0};
    hb_process_end end;
    hb_process p = HB_PROCESS_INIT;
    p.fn = child_checks;
    p.context = &c;
    assert_int_equal(hb_process_capture(&p, 300, &capture, &end), HB_OK);
    assert_true(end.exited);
    assert_int_equal(end.code, 0);
    memset(out, 0, sizeof *out);
    int at = 0;
    assert_int_equal(sscanf(text, "%d|%u|%zu|%zu|%u|%n", &out->changed, &out->table_prot, &out->ranges, &out->bytes,
                            &out->checks, &at),
                     5);
    snprintf(out->what, sizeof out->what, "%s", text + at);
    out->what[strcspn(out->what, "\n")] = '\0';
}

/* "remquo+0x8", as dladdr names the changed byte in this process. */
static void expected_symbol(char *out, size_t size)
{
    unsigned char *byte = target();
    assert_non_null(byte);
    Dl_info info;
    assert_true(dladdr(byte, &info) && info.dli_sname && info.dli_saddr);
    snprintf(out, size, "%s+0x%llx", info.dli_sname, (unsigned long long)(byte - (unsigned char *)info.dli_saddr));
}

static void test_code_pages_unchanged_pass(void **state)
{
    (void)state;
    outcome o;
    run_case(change_nothing, &o);
    assert_int_equal(o.changed, 0);
    assert_string_equal(o.what, "");
    assert_int_equal(o.table_prot, HB_MAP_READ); /* the table is read-only once sealed */
    assert_true(o.ranges >= 4);                  /* this binary, libc, libm, ld.so, [vdso] at least */
    assert_true(o.bytes > (1u << 20));           /* libc's code alone is more than 1 MiB */
    assert_int_equal(o.checks, 1);
}

static void test_code_pages_changed_byte_named(void **state)
{
    (void)state;
    char symbol[300];
    expected_symbol(symbol, sizeof symbol);
    outcome o;
    run_case(flip_byte, &o);
    assert_int_equal(o.changed, 1);
    assert_non_null(strstr(o.what, "libm.so.6's code changed at page +0x"));
    assert_non_null(strstr(o.what, symbol)); /* the very byte, found against the file */
    assert_non_null(strstr(o.what, "its bytes differ from the seal's"));
}

static void test_code_pages_restored_write_still_found(void **state)
{
    (void)state;
    outcome o;
    run_case(flip_and_restore, &o);
    assert_int_equal(o.changed, 1);
    assert_non_null(strstr(o.what, "libm.so.6's code was written at page +0x"));
    assert_non_null(strstr(o.what, "even if its bytes were put back"));
    run_case(write_through_proc_mem, &o);
    assert_int_equal(o.changed, 1);
    assert_non_null(strstr(o.what, "libm.so.6's code was written"));
}

static void test_code_pages_made_writable(void **state)
{
    (void)state;
    outcome o;
    run_case(make_writable, &o);
    assert_int_equal(o.changed, 1);
    assert_non_null(strstr(o.what, "libm.so.6's code at 0x"));
    assert_non_null(strstr(o.what, "was made writable (rw-p)"));
}

static void test_code_pages_mapped_over(void **state)
{
    (void)state;
    outcome o;
    run_case(map_file_over, &o);
    assert_int_equal(o.changed, 1);
    assert_non_null(strstr(o.what, "libm.so.6's code at 0x"));
    assert_non_null(strstr(o.what, "was mapped over by hb-code-pages-"));
}

static void test_code_pages_new_code_is_no_change(void **state)
{
    (void)state;
    outcome o;
    run_case(map_new_code, &o);
    assert_int_equal(o.changed, 0);
    assert_string_equal(o.what, "");
}

/* summary.csv's code columns: the candidate's row of a sealed
 * configuration only; empty where nothing was sealed (--profile's process,
 * a configuration that ended before the seal) and in baselines' rows. */
static void test_code_pages_columns(void **state)
{
    (void)state;
    static hb_config_result r;
    const hb_mnk mnk = {64, 64, 64};
    hb_config_result_init(&r, &mnk);
    r.count = 2;
    r.participants[0].is_candidate = 1;
    hb_row candidate = {"id", "fp32", &r, &r.participants[0]}, baseline = {"id", "fp32", &r, &r.participants[1]};
    const char *names[] = {"code_bytes", "code_seal_ms", "code_checks", "code_check_ms"};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(hb_summary_column_find(names[i])->value(&candidate).kind, HB_CELL_EMPTY);
    r.code_pages = (hb_code_pages_cost){.ranges = 40, .bytes = 500000000, .seal_ms = 90, .check_ms = 300, .checks = 5};
    const double values[] = {500000000, 90, 5, 300};
    for (size_t i = 0; i < 4; i++) {
        hb_cell cell = hb_summary_column_find(names[i])->value(&candidate);
        assert_int_equal(cell.kind, HB_CELL_NUMBER);
        assert_true(cell.number == values[i]);
        assert_int_equal(hb_summary_column_find(names[i])->value(&baseline).kind, HB_CELL_EMPTY);
    }
}

static const struct CMUnitTest code_pages_tests[] = {
    cmocka_unit_test(test_code_pages_unchanged_pass),
    cmocka_unit_test(test_code_pages_changed_byte_named),
    cmocka_unit_test(test_code_pages_restored_write_still_found),
    cmocka_unit_test(test_code_pages_made_writable),
    cmocka_unit_test(test_code_pages_mapped_over),
    cmocka_unit_test(test_code_pages_new_code_is_no_change),
    cmocka_unit_test(test_code_pages_columns),
};

hb_test_list hb_code_pages_tests(void) { return HB_TEST_LIST(code_pages_tests); }
