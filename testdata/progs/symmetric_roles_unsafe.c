// expect: unsafe
// bounds: unwind=4
// Identical workers spawned in a loop (symmetric instances: same function,
// constant argument, the handle never read, no join). Each takes one of
// three roles at random and advances stage only from its role's state.
// The bug needs three workers in the three roles, each moving after the
// previous one: the built-in backend orders symmetric instances by their
// first shared access (backend/builtin/symmetry.go), and this run must
// survive that ordering.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#include <pthread.h>

int stage = 0;

void __VERIFIER_atomic_advance(int from) {
  __VERIFIER_assume(stage == from);
  stage = from + 1;
}

void *worker(void *arg) {
  int role = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= role && role <= 2);
  __VERIFIER_atomic_advance(role);
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  for (i = 0; i < 3; i++)
    pthread_create(&t, 0, worker, 0);
  if (stage == 3)
    reach_error();
  return 0;
}
