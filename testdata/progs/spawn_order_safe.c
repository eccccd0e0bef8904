// expect: safe
// bounds: unwind=2
// What a thread can read of values written before it was spawned: main
// writes x = 1 then spawns a child, which writes x = 2 then spawns a
// grandchild; main writes x = 3 after its spawn. The grandchild sees 2 or
// 3, never 0 or 1 (those writes happen before the child's spawn and are
// overwritten). y is written before the spawn only on some runs: 0 or 5.
// n and d, written once before any spawn, read the same in every read,
// so (n / d) * d + n % d == n although n / d and n % d read them apart,
// and n % d < d.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int x, y, n, d;

void *grandchild(void *arg) {
  int a = x;
  int b = y;
  assert(a == 2 || a == 3);
  assert(b == 0 || b == 5);
  assert(n % d < d);
  return 0;
}

void *child(void *arg) {
  pthread_t g;
  int q, r;
  x = 2;
  pthread_create(&g, 0, grandchild, 0);
  q = n / d;
  r = n % d;
  assert(q * d + r == n);
  pthread_join(g, 0);
  return 0;
}

int main(void) {
  pthread_t c;
  x = 1;
  n = __VERIFIER_nondet_int();
  d = __VERIFIER_nondet_int();
  __VERIFIER_assume(d > 0);
  if (__VERIFIER_nondet_int())
    y = 5;
  pthread_create(&c, 0, child, 0);
  x = 3;
  pthread_join(c, 0);
  return 0;
}
