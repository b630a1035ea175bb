#define _POSIX_C_SOURCE 200809L
#include "bench/trace/activity_buffers.h"

#include <pthread.h>
#include <stdlib.h>

#include "bench/core/diag.h"
#include "bench/trace/activity_records.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hb_activity_sink *current;       /* guarded by lock */
static const hb_cupti_api *registered;  /* the CUPTI the callbacks were registered with; guarded by lock */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* aligned_alloc wants a size that is a multiple of the alignment: 8 MiB is. */
    *buffer = aligned_alloc(HB_ACTIVITY_BUFFER_ALIGN, HB_ACTIVITY_BUFFER_BYTES);
    *size = *buffer ? HB_ACTIVITY_BUFFER_BYTES : 0;
    *max_records = 0; /* as many as fit */
    if (!*buffer) {
        pthread_mutex_lock(&lock);
        if (current)
            current->refused++;
        pthread_mutex_unlock(&lock);
    }
}

static void read_buffer(const hb_cupti_api *api, uint8_t *buffer, size_t valid, hb_activity_sink *sink)
{
    CUpti_Activity *record = NULL;
    /* CUPTI_ERROR_MAX_LIMIT_REACHED ends the buffer; CUPTI_ERROR_INVALID_KIND
     * an incomplete record: either way nothing more can be read from it. */
    while (api->activity_get_next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
        sink->seen++;
        if (sink->store)
            hb_activity_record_store(record, sink->store);
    }
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    (void)size;
    pthread_mutex_lock(&lock);
    if (current && registered && buffer) {
        read_buffer(registered, buffer, valid, current);
        size_t dropped = 0;
        if (registered->activity_get_num_dropped_records(context, stream_id, &dropped) == CUPTI_SUCCESS)
            current->dropped += dropped;
    }
    pthread_mutex_unlock(&lock);
    free(buffer);
}

hb_status hb_activity_attach(const hb_cupti_api *api, hb_activity_sink *sink)
{
    pthread_mutex_lock(&lock);
    CUptiResult result = CUPTI_SUCCESS;
    if (!registered) {
        result = api->activity_register_callbacks(buffer_requested, buffer_completed);
        if (result == CUPTI_SUCCESS)
            registered = api;
    }
    if (result == CUPTI_SUCCESS)
        current = sink;
    pthread_mutex_unlock(&lock);
    if (result != CUPTI_SUCCESS)
        return hb_fail(HB_ERR_CUDA, "cuptiActivityRegisterCallbacks failed: %s", hb_cupti_result_name(api, result));
    return HB_OK;
}

void hb_activity_detach(void)
{
    pthread_mutex_lock(&lock);
    current = NULL;
    pthread_mutex_unlock(&lock);
}

hb_status hb_activity_flush(const hb_cupti_api *api)
{
    HB_CUPTI_TRY(api, api->activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    return HB_OK;
}

void hb_activity_lock(void) { pthread_mutex_lock(&lock); }
void hb_activity_unlock(void) { pthread_mutex_unlock(&lock); }
