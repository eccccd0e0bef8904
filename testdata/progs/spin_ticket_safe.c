// expect: safe
// bounds: unwind=3
// A ticket lock: each worker takes a ticket atomically and waits until it
// is served (a busy-wait loop, executed by the built-in backend as one
// iteration after a wait: backend/builtin/spin.go). Mutual exclusion holds.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#include <pthread.h>

unsigned next = 0;
unsigned served = 0;
int inside = 0;

void __VERIFIER_atomic_take(unsigned *l) {
  *l = next;
  next = next + 1;
}

void *worker(void *arg) {
  unsigned l;
  __VERIFIER_atomic_take(&l);
  while (l != served)
    ;
  inside = inside + 1;
  if (inside != 1)
    reach_error();
  inside = inside - 1;
  served = served + 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  for (i = 0; i < 2; i++)
    pthread_create(&t, 0, worker, 0);
  worker(0);
  return 0;
}
