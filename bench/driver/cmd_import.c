/* `import FORMAT` (`import cuda-l2`): the format looked up in the table
 * (bench/import/import_formats.h), the flags into the importer's options,
 * the target and the device the launch recorder describes taken from this
 * GPU when there is one (bench/import/import_run.h does the rest). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/commands.h"
#include "bench/driver/interrupt.h"
#include "bench/gpu/device.h"
#include "bench/import/import_formats.h"
#include "bench/import/import_run.h"
#include "bench/sweep/plan_source.h"

/* The target: --arch, else this GPU's.  The recorder describes this GPU when
 * it is of the target's architecture, else the table's GPU for it. */
static hb_status target(const hb_import_settings *s, int ordinal, hb_import_options *o)
{
    if (s->arch)
        HB_TRY(hb_target_arch_parse(s->arch, &o->arch)); /* a bad --arch is named before the GPU is asked */
    int count = 0;
    hb_device_info info;
    hb_no_gpu_reason why = {"", ""};
    /* no GPU is fine when --arch names the target: said below, with why, if it is not */
    int have_gpu = hb_device_count_silent(&count, &why) == HB_OK;
    if (have_gpu && count <= ordinal)
        snprintf(why.fact, sizeof why.fact, "--device %d: this machine has %d CUDA GPU(s)", ordinal, count);
    hb_diag_set_quiet(1);
    have_gpu = have_gpu && count > ordinal && hb_device_open(ordinal, &info) == HB_OK;
    hb_diag_set_quiet(0);
    if (!have_gpu && !why.fact[0])
        snprintf(why.fact, sizeof why.fact, "%s", hb_last_error());
    if (!s->arch && have_gpu)
        hb_target_arch_for_gpu(info.sm, &o->arch);
    else if (!s->arch)
        return hb_fail(HB_ERR_USAGE, "import: no GPU here to take the target from: %s; name it with --arch (sm_90a "
                       "for the H100 set, sm_80 for the A100 sets, sm_86 for the 3090 set): the import itself needs "
                       "no GPU", why.fact);
    if (have_gpu && info.sm == o->arch.sm) {
        o->device = (hb_recorder_device){info.sm, info.sm_count, info.smem_per_block_optin, 0, info.l2_bytes, ""};
        hb_recorder_device table;
        o->device.smem_per_sm = hb_recorder_device_for_arch(info.sm, &table) ? table.smem_per_sm
                                                                               : info.smem_per_block_optin + 1024;
        snprintf(o->device.described, sizeof o->device.described, "%.80s (this GPU)", info.name);
    } else if (!hb_recorder_device_for_arch(o->arch.sm, &o->device)) {
        return hb_fail(HB_ERR_USAGE, "import: --arch %s: no GPU of that architecture here and no table entry for it; "
                       "run the import on such a GPU",
                       o->arch.name);
    }
    return HB_OK;
}

hb_status hb_cmd_import(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self, (void)command_line;
    const hb_run_options *run = &cli->run;
    const hb_import_settings *s = &run->import;
    const hb_import_format *format = NULL;
    HB_TRY(hb_import_format_lookup("import", cli->n_operands == 1 ? cli->operands[0] : NULL, &format));
    if (!s->kernels_dir || !s->out_dir)
        return hb_fail(HB_ERR_USAGE, "import: --kernels DIR (%s) and --out SET are required", format->folder_hint);
    HB_TRY(hb_import_check_inputs(format, s->kernels_dir)); /* before the GPU: a missing folder is named as such */
    hb_import_options o = {.kernels_dir = s->kernels_dir, .out_dir = s->out_dir, .cutlass_dir = s->cutlass_dir,
                              .cache_dir = s->cache_dir, .nvcc = s->nvcc, .report_name = s->report_name, .allow_arch_mismatch = s->allow_arch_mismatch,
                              .rebuild = s->rebuild, .build_timeout_s = (int)s->build_timeout_s};
    o.jobs = s->jobs; /* 0: the importer's choice from the cores and the memory available */
    o.order_given = s->order && strcmp(s->order, "given") == 0;
    static hb_sweep_plan plan; /* large: HB_MAX_CONFIGS configurations */
    memset(&plan, 0, sizeof plan);
    if (run->grid || run->mnk_file || run->m_list || run->n_configs) {
        HB_TRY(hb_plan_from_options(run, "import", &plan));
        if (run->sample)
            hb_plan_sample(&plan, (size_t)run->sample, run->seed);
        o.configs = plan.configs;
        o.n_configs = plan.n_configs;
    } else if (run->sample) {
        return hb_fail(HB_ERR_USAGE, "import: --sample N draws from a plan: give --grid paper (or --mnk-file, --m/--n/--k)");
    }
    HB_TRY(target(s, run->device, &o));
    /* SIGINT, SIGTERM, SIGHUP: the builds running are ended, the report
     * finished with the files not built marked unfinished, exit 128 + the signal. */
    HB_TRY(hb_interrupt_install());
    o.interrupted = hb_interrupted;
    hb_status status = hb_import_run(format, &o);
    hb_interrupt_restore();
    return status;
}
