// expect: unsafe
// bounds: unwind=2
// What a thread can read of values written before it was spawned: main
// writes x = 1 then spawns a child, which writes x = 2 then spawns a
// grandchild; main writes x = 3 after its spawn. The grandchild sees 2 or
// 3, never 0 or 1 (those writes happen before the child's spawn and are
// overwritten). y is written before the spawn only on some runs, so its
// initial value stays visible. Fails: the grandchild reads x == 3 and
// y still 0 (either read wrongly pruned makes it safe).
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x, y;

void *grandchild(void *arg) {
  int a = x;
  int b = y;
  assert(!(a == 3 && b == 0));
  return 0;
}

void *child(void *arg) {
  pthread_t g;
  x = 2;
  pthread_create(&g, 0, grandchild, 0);
  pthread_join(g, 0);
  return 0;
}

int main(void) {
  pthread_t c;
  x = 1;
  if (__VERIFIER_nondet_int())
    y = 5;
  pthread_create(&c, 0, child, 0);
  x = 3;
  pthread_join(c, 0);
  return 0;
}
