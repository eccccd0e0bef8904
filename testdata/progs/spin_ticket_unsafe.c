// expect: unsafe
// bounds: unwind=3
// The ticket lock of spin_ticket_safe.c with a ticket taken in two steps
// (not atomically): two workers can take the same ticket and be inside
// together. The workers wait in a busy-wait loop (backend/builtin/spin.go).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#include <pthread.h>

unsigned next = 0;
unsigned served = 0;
int inside = 0;

void take(unsigned *l) {
  *l = next;
  next = next + 1;
}

void *worker(void *arg) {
  unsigned l;
  take(&l);
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
