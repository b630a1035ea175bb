#include "tests/replay_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static uint64_t next_seq;

uint64_t fix_seq(void)
{
    return ++next_seq;
}

hb_replay_capture *fix_capture(int calls, const char *const *names)
{
    hb_replay_capture *capture = hb_replay_capture_new();
    assert_non_null(capture);
    next_seq = 0;
    capture->buffers[HB_TARGET_A] = (hb_capture_buffer){FIX_A, FIX_BUFFER_BYTES};
    capture->buffers[HB_TARGET_B] = (hb_capture_buffer){FIX_B, FIX_BUFFER_BYTES};
    capture->buffers[HB_TARGET_C] = (hb_capture_buffer){FIX_C, FIX_BUFFER_BYTES};
    for (int i = 0; i < 3; i++)
        capture->mnk[i] = capture->padded[i] = 256;
    capture->sm = 90;
    capture->calls = calls;
    capture->n_streams = 1;
    capture->streams[0] = 0x1234;
    capture->n_modules = 1;
    snprintf(capture->modules[0].file, sizeof capture->modules[0].file, "module-0.cubin");
    for (uint32_t i = 0; names[i]; i++) {
        snprintf(capture->functions[i].name, sizeof capture->functions[i].name, "%s", names[i]);
        capture->n_functions = i + 1;
    }
    capture->n_func_attrs = 1;
    capture->func_attrs[0] = (hb_replay_func_attr){.function = 0, .attribute = 8, .value = 200 * 1024};
    return capture;
}

void fix_word(hb_capture_op *op, uint32_t at, uint64_t value, int device)
{
    for (int i = 0; i < 8; i++)
        op->kernel.params[at + i] = (unsigned char)(value >> (8 * i));
    if (device)
        op->device_words[at / 8 / 64] |= 1ull << (at / 8 % 64);
    if (op->kernel.param_bytes < at + 8)
        op->kernel.param_bytes = at + 8;
}

static void put_int(hb_replay_kernel *k, uint32_t at, uint32_t value)
{
    memcpy(k->params + at, &value, 4);
}

static hb_capture_op *new_op(hb_replay_capture *capture, int call, hb_replay_op_kind kind)
{
    assert_true(capture->n_ops < HB_CAPTURE_MAX_OPS);
    hb_capture_op *op = &capture->ops[capture->n_ops++];
    op->kind = kind;
    op->call = call;
    op->seq = fix_seq();
    return op;
}

hb_capture_op *fix_kernel(hb_replay_capture *capture, int call, uint32_t function, uint32_t grid_x)
{
    hb_capture_op *op = new_op(capture, call, HB_OP_KERNEL);
    hb_replay_kernel *k = &op->kernel;
    k->function = function;
    k->grid[0] = grid_x, k->grid[1] = k->grid[2] = 1;
    k->block[0] = 128, k->block[1] = k->block[2] = 1;
    k->smem = 49152;
    k->n_attrs = 1;
    k->attrs[0].id = 4; /* a cluster dimension, say */
    k->attrs[0].value[0] = 2;
    fix_word(op, 0, FIX_A, 1);
    fix_word(op, 8, FIX_B, 1);
    fix_word(op, 16, FIX_C, 1);
    put_int(k, 24, 256), put_int(k, 28, 256), put_int(k, 32, 256);
    k->param_bytes = 40;
    k->n_params = 6;
    const uint32_t offsets[6] = {0, 8, 16, 24, 28, 32}, sizes[6] = {8, 8, 8, 4, 4, 4};
    memcpy(k->param_offset, offsets, sizeof offsets);
    memcpy(k->param_size, sizes, sizeof sizes);
    return op;
}

hb_capture_op *fix_memset(hb_replay_capture *capture, int call, uint64_t dst, uint64_t count)
{
    hb_capture_op *op = new_op(capture, call, HB_OP_MEMSET);
    op->dst = dst;
    op->bytes = count;
    op->element_bytes = 4;
    return op;
}

hb_capture_alloc *fix_alloc(hb_replay_capture *capture, int call, uint64_t base, uint64_t bytes)
{
    assert_true(capture->n_allocs < HB_CAPTURE_MAX_ALLOCS);
    hb_capture_alloc *alloc = &capture->allocs[capture->n_allocs++];
    *alloc = (hb_capture_alloc){.base = base, .bytes = bytes, .call = call, .seq = fix_seq()};
    return alloc;
}

void fix_free(hb_capture_alloc *alloc)
{
    alloc->freed_seq = fix_seq();
}

hb_capture_map *fix_map(hb_replay_capture *capture, uint64_t address)
{
    assert_true(capture->n_maps < HB_CAPTURE_MAX_MAPS);
    hb_capture_map *m = &capture->maps[capture->n_maps++];
    m->address = address;
    m->seq = fix_seq();
    m->map.data_type = 6; /* CU_TENSOR_MAP_DATA_TYPE_FLOAT16 */
    m->map.rank = 2;
    m->map.dims[0] = m->map.dims[1] = 256;
    m->map.strides[0] = 512;
    m->map.box[0] = 64, m->map.box[1] = 128;
    m->map.element_strides[0] = m->map.element_strides[1] = 1;
    m->map.swizzle = 3;
    for (int i = 0; i < HB_REPLAY_MAP_BYTES; i++)
        m->map.bytes[i] = (unsigned char)(0xa0 + i);
    for (int i = 0; i < 8; i++)
        m->map.bytes[i] = (unsigned char)(address >> (8 * i));
    return m;
}

void fix_put_map(hb_capture_op *op, const hb_capture_map *map, uint32_t at)
{
    memcpy(op->kernel.params + at, map->map.bytes, HB_REPLAY_MAP_BYTES);
    op->device_words[at / 8 / 64] |= 1ull << (at / 8 % 64);
    if (op->kernel.param_bytes < at + HB_REPLAY_MAP_BYTES)
        op->kernel.param_bytes = at + HB_REPLAY_MAP_BYTES;
}
