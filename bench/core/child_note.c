#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "bench/core/child_note.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/core/diag.h"

static hb_child_note *this_process_note;

hb_child_note *hb_child_note_map(void)
{
    void *page = mmap(NULL, sizeof(hb_child_note), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        hb_fail(HB_ERR_INTERNAL, "cannot map a shared page for the child's note: %s", strerror(errno));
        return NULL;
    }
    return page; /* zeroed by the kernel */
}

void hb_child_note_unmap(hb_child_note *note)
{
    if (note)
        munmap(note, sizeof *note);
}

void hb_child_note_adopt(hb_child_note *note)
{
    this_process_note = note;
}

hb_child_note *hb_child_note_here(void)
{
    return this_process_note;
}

/* No libc call but the inline copy: the caller may be a signal handler. */
int hb_child_note_write(hb_child_note *note, const char *text)
{
    if (!note || __atomic_exchange_n(&note->claimed, 1, __ATOMIC_ACQ_REL))
        return 0;
    size_t i = 0;
    for (; text[i] && i + 1 < sizeof note->text; i++)
        note->text[i] = text[i];
    note->text[i] = '\0';
    __atomic_store_n(&note->written, 1, __ATOMIC_RELEASE);
    return 1;
}

static void copy_text(char *out, size_t size, const char *from, size_t from_size)
{
    if (!size)
        return;
    size_t n = strnlen(from, from_size);
    if (n >= size)
        n = size - 1;
    memcpy(out, from, n);
    out[n] = '\0';
}

void hb_child_note_read(const hb_child_note *note, char *text, size_t text_size, char *sandbox, size_t sandbox_size)
{
    int written = note && __atomic_load_n(&note->written, __ATOMIC_ACQUIRE);
    copy_text(text, text_size, written ? note->text : "", written ? sizeof note->text : 1);
    copy_text(sandbox, sandbox_size, note ? note->sandbox : "", note ? sizeof note->sandbox : 1);
}
