/* The settings of `report` and `compare` (docs/cli.md), as the command line
 * gave them: plain text the commands read (bench/driver/cmd_report.c,
 * cmd_compare.c), the choices already checked by the option parser. */
#ifndef HB_REPORT_OPTIONS_H
#define HB_REPORT_OPTIONS_H

typedef struct hb_report_options {
    const char *out_dir;   /* --out: also write every file here; NULL: stdout only */
    const char *format;    /* --format: stdout's format, "md" (default), "csv" or "json" */
    const char *timer;     /* --timer: "event" (default) or "wall" */
    int plots;             /* --plots: draw the figures into out_dir */
    const char *published; /* compare --published: the published CSV */
    const char *mode;      /* compare --mode: "offline" or "server"; NULL: from the published file's name */
    double noise;          /* compare --noise: the published side's noise, a fraction (0.02 = 2 %); 0: none */
    double threshold;      /* compare --threshold: a fraction; read only when threshold_given */
    int threshold_given;   /* 1: --threshold was given (exit 15 when a configuration is below it) */
} hb_report_options;

#endif
