/* A signal's name as results files write it ("SIGINT"): strsignal's text
 * ("Interrupt") is localised and not what a pipeline greps for. */
#ifndef HB_SIGNAL_NAME_H
#define HB_SIGNAL_NAME_H

/* "SIGINT", "SIGTERM", ...; "SIG?" for a number it does not know. */
const char *hb_signal_name(int signal_number);

#endif
