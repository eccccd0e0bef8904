// expect: safe
// bounds: unwind=2 threads=2
// Reads under a narrower guard inside an atomic section. x and y stay 0 or
// 1 and x == y at every point outside the writer's atomic section. The
// reader's section reads x through a pointer that may point to x or to y,
// and under the right operand of &&, then reads x again: the second read
// sees the same value as the first wherever the first happened, and the
// cell's value elsewhere, so it must equal y.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x = 0, y = 0;

void *writer(void *arg) {
  __VERIFIER_atomic_begin();
  x = 1;
  y = 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t;
  int *p;
  int flag = __VERIFIER_nondet_int();
  int a = 0, b, c;
  pthread_create(&t, 0, writer, 0);
  p = __VERIFIER_nondet_int() ? &x : &y;
  __VERIFIER_atomic_begin();
  b = *p;
  if (flag && x == 1)
    a = 1;
  c = x;
  assert(c == y);
  assert(a == 0 || c == 1);
  assert(b == c);
  __VERIFIER_atomic_end();
  pthread_join(t, 0);
  return 0;
}
