/* Ctrl-C and SIGTERM for the long commands (run, render, view): the request is only noted, and
 * the command stops at its next frame boundary (run: at its next time step), leaving complete output
 * and exiting with 130. */
#ifndef DRAPE_APP_INTERRUPT_H
#define DRAPE_APP_INTERRUPT_H

#include <stdbool.h>

/* Clears any earlier request and catches SIGINT and SIGTERM until interrupt_unwatch(). */
void interrupt_watch(void);
/* Puts back the handlers that were there before interrupt_watch(). */
void interrupt_unwatch(void);
bool interrupt_requested(void);
/* The flag itself, for drape_run's cancel (checked between the solver's steps too). */
const volatile int* interrupt_flag(void);

#endif
