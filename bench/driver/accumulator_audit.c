#include "bench/driver/accumulator_audit.h"

#include "bench/candidate/manifest.h"
#include "bench/import/sass_audit.h"

/* The manifest's file for this GPU; its only file when the GPU is unknown. */
static const hb_arch_file *file_for(const hb_manifest *m, const hb_device_info *device)
{
    const hb_arch_file *file = device ? hb_manifest_file_for(m, device->sm) : NULL;
    return file ? file : m->n_files == 1 ? &m->files[0] : NULL;
}

void hb_accumulator_audit(const hb_run_options *options, const hb_device_info *device, hb_config_result *r)
{
    if (options->aa || !r->manifest_path[0])
        return;
    static hb_manifest manifest; /* 8 KiB of entry name and more: not on the stack */
    if (hb_manifest_load(r->manifest_path, &manifest) != HB_OK)
        return;
    const hb_arch_file *file = file_for(&manifest, device);
    if (!file)
        return;
    hb_sass_audit_file(file->path, NULL, &r->mma, NULL, 0);
    r->mma_audited = 1;
    hb_mma_findings(&r->mma, manifest.accumulator, &r->conduct);
}
