/* Interrupt requests for the long commands (interrupt.h). */
#include "interrupt.h"

#include <signal.h>

static volatile sig_atomic_t requested = 0;
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
