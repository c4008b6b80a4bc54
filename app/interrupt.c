/* Interrupt requests for the long commands (interrupt.h). */
#include "interrupt.h"

#include <signal.h>

/* An int (glibc's sig_atomic_t) so that drape_world_set_cancel can watch it directly. */
static volatile int requested = 0;
static void (*old_int)(int) = SIG_DFL;
static void (*old_term)(int) = SIG_DFL;

static void on_signal(int sig)
{
	(void)sig;
	requested = 1;
}

void interrupt_watch(void)
{
	requested = 0;
	old_int = signal(SIGINT, on_signal);
	old_term = signal(SIGTERM, on_signal);
}

void interrupt_unwatch(void)
{
	signal(SIGINT, old_int);
	signal(SIGTERM, old_term);
}

bool interrupt_requested(void)
{
	return requested != 0;
}

const volatile int* interrupt_flag(void) { return &requested; }
