#include "bench/trace/activity_records.h"

#include <stdio.h>
#include <string.h>

#include "bench/trace/kernel_name.h"

static void store_kernel(const CUpti_ActivityKernel10 *k, hb_record_store *store)
{
    hb_traced_kernel kernel = {0};
    /* The name is CUPTI's, shared by every record of the kernel: copied, as
     * the buffer goes back to CUPTI's pool once read. */
    const char *name = k->name ? k->name : "(unnamed)";
    snprintf(kernel.name, sizeof kernel.name, "%s", name);
    hb_kernel_short_name(name, kernel.display_name, sizeof kernel.display_name); /* from the whole name */
    kernel.grid[0] = k->gridX, kernel.grid[1] = k->gridY, kernel.grid[2] = k->gridZ;
    kernel.block[0] = k->blockX, kernel.block[1] = k->blockY, kernel.block[2] = k->blockZ;
    kernel.cluster[0] = k->clusterX, kernel.cluster[1] = k->clusterY, kernel.cluster[2] = k->clusterZ;
    kernel.registers = k->registersPerThread;
    kernel.static_smem = k->staticSharedMemory;
    kernel.dynamic_smem = k->dynamicSharedMemory;
    kernel.stream_id = k->streamId;
    kernel.correlation_id = k->correlationId;
    kernel.start_ns = k->start;
    kernel.end_ns = k->end;
    hb_record_store_add_kernel(store, &kernel);
}

static hb_copy_kind copy_kind(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return HB_COPY_HTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return HB_COPY_DTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return HB_COPY_DTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return HB_COPY_HTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return HB_COPY_PEER;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return HB_COPY_ARRAY;
    default:
        return HB_COPY_UNKNOWN;
    }
}

static void store_memcpy(const CUpti_ActivityMemcpy6 *m, hb_record_store *store)
{
    hb_traced_copy copy = {copy_kind(m->copyKind), m->bytes, m->streamId, m->correlationId, m->start, m->end};
    hb_record_store_add_copy(store, &copy);
}

static void store_memset(const CUpti_ActivityMemset4 *m, hb_record_store *store)
{
    hb_traced_copy set = {HB_COPY_MEMSET, m->bytes, m->streamId, m->correlationId, m->start, m->end};
    hb_record_store_add_copy(store, &set);
}

static void store_event(const CUpti_ActivityCudaEvent2 *e, hb_record_store *store)
{
    hb_traced_event event = {e->correlationId, e->streamId, e->deviceTimestamp};
    hb_record_store_add_event(store, &event);
}

void hb_activity_record_store(const CUpti_Activity *record, hb_record_store *store)
{
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
        store_kernel((const CUpti_ActivityKernel10 *)record, store);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        store_memcpy((const CUpti_ActivityMemcpy6 *)record, store);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        store_memset((const CUpti_ActivityMemset4 *)record, store);
        break;
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT:
        store_event((const CUpti_ActivityCudaEvent2 *)record, store);
        break;
    default:
        break;
    }
}
