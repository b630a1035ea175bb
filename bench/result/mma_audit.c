#include "bench/result/mma_audit.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[HB_MMA_N_KINDS] = {
    [HB_MMA_HMMA_F32] = "hmma.f32",   [HB_MMA_HMMA_F16] = "hmma.f16", [HB_MMA_HGMMA_F32] = "hgmma.f32",
    [HB_MMA_HGMMA_F16] = "hgmma.f16", [HB_SIMT_F16] = "simt.f16",     [HB_SIMT_F32] = "simt.f32",
    [HB_SIMT_F64] = "simt.f64",
};

const char *hb_mma_kind_name(hb_mma_kind kind)
{
    return (unsigned)kind < HB_MMA_N_KINDS ? kind_names[kind] : "?";
}

/* The opcode of an instruction line, which opens with its address in a
 * comment, then an optional predicate ("@!P0"), then "HMMA.16816.F16 R34, ...":
 * copies the word after both into `out` and returns the operands' text
 * after it; NULL when the line holds no instruction. */
static const char *opcode_of(const char *line, char *out, size_t size)
{
    const char *p = line + strspn(line, " \t");
    if (strncmp(p, "/*", 2) != 0)
        return NULL;
    const char *end = strstr(p + 2, "*/");
    if (!end)
        return NULL;
    for (const char *d = p + 2; d < end; d++)
        if (!isxdigit((unsigned char)*d)) /* the address; an encoding-only line has "0x..." after a space */
            return NULL;
    p = end + 2;
    p += strspn(p, " \t");
    if (*p == '@') /* the predicate: @P0, @!UP1, @PT */
        p += strcspn(p, " \t"), p += strspn(p, " \t");
    size_t len = strcspn(p, " \t;");
    if (len == 0 || len >= size)
        return NULL;
    memcpy(out, p, len);
    out[len] = '\0';
    return p + len;
}

/* 1 when operand `index` (0: the destination) of the operand text `ops`
 * ("R14, -RZ, RZ, 0, 0 ;") is the zero register, negated or not. */
static int operand_is_zero(const char *ops, int index)
{
    const char *p = ops;
    for (int i = 0; i < index && p; i++)
        p = strchr(p, ','), p = p ? p + 1 : NULL;
    if (!p)
        return 0;
    p += strspn(p, " \t-|");
    return !strncmp(p, "RZ", 2) && (p[2] == '\0' || strchr(" \t\r\n,;|.", p[2]));
}

/* A multiply-add by zero, "HFMA2.MMA R79, -RZ, RZ, 0, 0": the compiler's
 * idiom for moving a constant into a register, no arithmetic. */
static int is_move(const char *ops)
{
    return operand_is_zero(ops, 1) || operand_is_zero(ops, 2);
}

/* The third dot-separated part of "HMMA.16816.F32.BF16": the accumulator's type. */
static const char *accumulator_part(const char *opcode)
{
    const char *first = strchr(opcode, '.');
    const char *second = first ? strchr(first + 1, '.') : NULL;
    return second ? second + 1 : "";
}

static int is_type(const char *part, const char *type)
{
    size_t n = strlen(type);
    return !strncmp(part, type, n) && (part[n] == '\0' || part[n] == '.');
}

static int is_family(const char *opcode, const char *family)
{
    size_t n = strlen(family);
    return !strncmp(opcode, family, n) && (opcode[n] == '\0' || opcode[n] == '.');
}

void hb_mma_audit_add_line(hb_mma_audit *audit, const char *line)
{
    char op[64];
    const char *ops = opcode_of(line, op, sizeof op);
    if (!ops)
        return;
    int hmma = is_family(op, "HMMA"), hgmma = is_family(op, "HGMMA");
    if (hmma || hgmma) {
        const char *acc = accumulator_part(op);
        if (is_type(acc, "F32"))
            audit->count[hmma ? HB_MMA_HMMA_F32 : HB_MMA_HGMMA_F32]++;
        else if (is_type(acc, "F16"))
            audit->count[hmma ? HB_MMA_HMMA_F16 : HB_MMA_HGMMA_F16]++;
    } else if (!is_move(ops)) {
        static const struct {
            const char *family;
            hb_mma_kind kind;
        } simt[] = {{"HFMA2", HB_SIMT_F16}, {"HADD2", HB_SIMT_F16}, {"HMUL2", HB_SIMT_F16},
                    {"FFMA", HB_SIMT_F32},  {"FADD", HB_SIMT_F32},  {"FMUL", HB_SIMT_F32},
                    {"DFMA", HB_SIMT_F64},  {"DADD", HB_SIMT_F64},  {"DMUL", HB_SIMT_F64}};
        for (size_t i = 0; i < sizeof simt / sizeof simt[0]; i++)
            if (is_family(op, simt[i].family)) {
                audit->count[simt[i].kind]++;
                break;
            }
    }
}

static long mma_f32(const hb_mma_audit *a) { return a->count[HB_MMA_HMMA_F32] + a->count[HB_MMA_HGMMA_F32]; }
static long mma_f16(const hb_mma_audit *a) { return a->count[HB_MMA_HMMA_F16] + a->count[HB_MMA_HGMMA_F16]; }

const char *hb_mma_audit_class(const hb_mma_audit *a)
{
    if (!a->known)
        return "unknown";
    long f32 = mma_f32(a), f16 = mma_f16(a);
    if (f32 || f16)
        return f32 && f16 ? "f16+f32" : f32 ? "f32" : "f16";
    /* Each set of SIMT types by bit (f16 1, f32 2, f64 4). */
    static const char *const simt[8] = {"none",     "simt-f16",     "simt-f32",     "simt-f16+f32",
                                        "simt-f64", "simt-f16+f64", "simt-f32+f64", "simt-f16+f32+f64"};
    int bits = (a->count[HB_SIMT_F16] > 0) | (a->count[HB_SIMT_F32] > 0) << 1 | (a->count[HB_SIMT_F64] > 0) << 2;
    return simt[bits];
}

void hb_mma_audit_format(const hb_mma_audit *a, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "%s", hb_mma_audit_class(a));
    if (!a->known)
        return;
    for (int k = 0; k < HB_MMA_N_KINDS && used < size; k++)
        if (a->count[k] > 0)
            used += (size_t)snprintf(out + used, size - used, ";%s=%ld", kind_names[k], a->count[k]);
}

static int parse_count(const char *part, size_t len, hb_mma_audit *out)
{
    for (int k = 0; k < HB_MMA_N_KINDS; k++) {
        size_t n = strlen(kind_names[k]);
        if (len > n + 1 && !strncmp(part, kind_names[k], n) && part[n] == '=') {
            char digits[24];
            if (len - n - 1 >= sizeof digits)
                return 0;
            snprintf(digits, sizeof digits, "%.*s", (int)(len - n - 1), part + n + 1);
            char *end;
            long v = strtol(digits, &end, 10);
            if (*end || v <= 0 || v == LONG_MAX || out->count[k]) /* LONG_MAX: out of range */
                return 0;
            out->count[k] = v;
            return 1;
        }
    }
    return 0;
}

int hb_mma_audit_parse_cell(const char *cell, hb_mma_audit *out)
{
    memset(out, 0, sizeof *out);
    size_t len = strcspn(cell, ";");
    char head[32];
    if (len == 0 || len >= sizeof head || !strncmp(cell, "unknown", len))
        return 0;
    snprintf(head, sizeof head, "%.*s", (int)len, cell);
    for (const char *p = cell + len; *p == ';'; p += len) {
        p++;
        len = strcspn(p, ";");
        if (!parse_count(p, len, out)) {
            memset(out, 0, sizeof *out);
            return 0;
        }
    }
    out->known = 1;
    if (strcmp(head, hb_mma_audit_class(out)) != 0) { /* the class must be what the counts say */
        memset(out, 0, sizeof *out);
        return 0;
    }
    return 1;
}

int hb_mma_fp16_only(const hb_mma_audit *a)
{
    return a->known && mma_f16(a) > 0 && mma_f32(a) == 0;
}

int hb_mma_fp16_simt_only(const hb_mma_audit *a)
{
    return a->known && mma_f16(a) == 0 && mma_f32(a) == 0 && a->count[HB_SIMT_F16] > 0 && a->count[HB_SIMT_F32] == 0 &&
           a->count[HB_SIMT_F64] == 0;
}

unsigned hb_mma_findings(const hb_mma_audit *a, hb_acc_class claimed, hb_conduct *conduct)
{
    if (claimed != HB_ACC_FP32)
        return 0;
    if (hb_mma_fp16_only(a)) {
        hb_conduct_add(conduct, HB_FINDING_FP16_MMA_ONLY,
                       "fp16-mma-only: claims fp32 accumulation, but all %ld MMA instructions of its SASS accumulate "
                       "in fp16 (HMMA %ld, HGMMA %ld; none in fp32)",
                       mma_f16(a), a->count[HB_MMA_HMMA_F16], a->count[HB_MMA_HGMMA_F16]);
        return HB_FINDING_BIT(HB_FINDING_FP16_MMA_ONLY);
    }
    if (hb_mma_fp16_simt_only(a)) {
        hb_conduct_add(conduct, HB_FINDING_FP16_SIMT_ONLY,
                       "fp16-simt-only: claims fp32 accumulation, but its SASS has no MMA and no fp32 arithmetic: "
                       "%ld fp16 instructions (HFMA2, HADD2, HMUL2)",
                       a->count[HB_SIMT_F16]);
        return HB_FINDING_BIT(HB_FINDING_FP16_SIMT_ONLY);
    }
    return 0;
}
