/* How many threads a world whose thread count is automatic (drape_world_def.threads = 0) uses
 * for its next step: the cores no other process is running on (docs/solver.md, "Determinism
 * and threads"). Results do not depend on the count, so it may change from step to step. */
#ifndef DRAPE_THREAD_POLICY_H
#define DRAPE_THREAD_POLICY_H

/* Between 1 and max: the processors this process may use, less those other processes' runnable
 * threads occupy right now. max when the system does not tell (no /proc). */
int thread_policy_free_cores(int max);

#endif
