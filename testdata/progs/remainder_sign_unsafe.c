// expect: unsafe
// bounds: unwind=3 threads=2
// Division and shift semantics. A worker stores x / 4, x % 4 and x >> 2
// for a nondet x in [-20, 20]. Division identities hold, but the author
// assumed that the remainder is never negative: in C it takes the sign of
// the dividend, so x == -3 gives r == -3 and the assertion fails. (x >> 2
// rounds toward minus infinity and so differs from x / 4 for negative x
// too; that check is written correctly.)
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int x;
int q, r, s;

void *worker(void *arg) {
  q = x / 4;
  r = x % 4;
  s = x >> 2;
  return 0;
}

int main(void) {
  pthread_t t;
  x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= -20 && x <= 20);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(q * 4 + r == x);
  assert(s <= q);
  assert(r >= 0);
  return 0;
}
