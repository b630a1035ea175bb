/* Tests of the memory-map reader (bench/core/memory_maps.c): the lines the
 * kernel writes, a line that does not parse, and this process's own map.
 * CPU only. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <string.h>

#include "bench/core/memory_maps.h"
#include "tests/test_registry.h"

static void test_maps_parse_kernel_lines(void **state)
{
    (void)state;
    const char *text = "55d0c0a00000-55d0c0a21000 r-xp 00002000 103:02 1311 /usr/bin/hgemm bench\n"
                       "7f10a0000000-7f10a0021000 rw-p 00000000 00:00 0 \n"
                       "7ffd1c3fe000-7ffd1c400000 r-xp 00000000 00:00 0                          [vdso]\n"
                       "7f10b2000000-7f10b4000000 rw-s 00000000 00:05 77 /dev/nvidiactl\n";
    hb_memory_maps maps;
    assert_int_equal(hb_memory_maps_parse(text, &maps), HB_OK);
    assert_int_equal(maps.count, 4);
    const hb_memory_map *code = &maps.maps[0];
    assert_true(code->start == 0x55d0c0a00000u && code->end == 0x55d0c0a21000u);
    assert_int_equal(code->prot, HB_MAP_READ | HB_MAP_EXEC);
    assert_int_equal(code->offset, 0x2000);
    assert_int_equal(code->dev_major, 0x103);
    assert_int_equal(code->inode, 1311);
    assert_string_equal(code->path, "/usr/bin/hgemm bench"); /* a space inside a path is kept */
    assert_string_equal(hb_memory_map_name(code), "hgemm bench");
    assert_string_equal(hb_memory_map_name(&maps.maps[1]), "anonymous memory");
    assert_string_equal(hb_memory_map_name(&maps.maps[2]), "[vdso]");
    assert_true(maps.maps[3].shared);
    assert_false(maps.maps[0].shared);
    assert_ptr_equal(hb_memory_maps_find(&maps, 0x7f10a0000010u), &maps.maps[1]);
    assert_null(hb_memory_maps_find(&maps, 0x7f10a0021000u)); /* the end is outside */
    hb_memory_maps_free(&maps);
}

static void test_maps_line_that_does_not_parse_is_an_error(void **state)
{
    (void)state;
    hb_memory_maps maps;
    assert_int_equal(hb_memory_maps_parse("55d0c0a00000-55d0c0a21000 r-xp\n", &maps), HB_ERR_INTERNAL);
    assert_int_equal(maps.count, 0);
    assert_int_equal(hb_memory_maps_parse("2000-1000 r-xp 0 00:00 0\n", &maps), HB_ERR_INTERNAL); /* end < start */
}

static void test_maps_of_this_process_hold_its_code(void **state)
{
    (void)state;
    hb_memory_maps maps;
    assert_int_equal(hb_memory_maps_read(&maps), HB_OK);
    assert_true(maps.count > 3);
    void (*self)(void **) = test_maps_of_this_process_hold_its_code;
    uintptr_t address;
    memcpy(&address, &self, sizeof address);
    const hb_memory_map *code = hb_memory_maps_find(&maps, address);
    assert_non_null(code);
    assert_true(code->prot & HB_MAP_EXEC);
    assert_false(code->prot & HB_MAP_WRITE);
    assert_true(code->inode != 0);
    int local = 0;
    const hb_memory_map *stack = hb_memory_maps_find(&maps, (uintptr_t)&local);
    assert_non_null(stack);
    assert_false(stack->prot & HB_MAP_EXEC);
    hb_memory_maps_free(&maps);
}

static const struct CMUnitTest memory_maps_tests[] = {
    cmocka_unit_test(test_maps_parse_kernel_lines),
    cmocka_unit_test(test_maps_line_that_does_not_parse_is_an_error),
    cmocka_unit_test(test_maps_of_this_process_hold_its_code),
};

hb_test_list hb_memory_maps_tests(void) { return HB_TEST_LIST(memory_maps_tests); }
