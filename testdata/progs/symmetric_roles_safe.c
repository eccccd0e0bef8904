// expect: safe
// bounds: unwind=4
// The safe twin of symmetric_roles_unsafe.c: four roles, but only three
// workers, so stage never reaches 4, whatever the roles and the order.
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
  __VERIFIER_assume(0 <= role && role <= 3);
  __VERIFIER_atomic_advance(role);
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  for (i = 0; i < 3; i++)
    pthread_create(&t, 0, worker, 0);
  if (stage == 4)
    reach_error();
  return 0;
}
