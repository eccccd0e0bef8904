// expect: safe
// bounds: unwind=3 threads=2
// Integer semantics that hold for every input. Comparing a negative int
// with an unsigned converts it to a huge unsigned value; C division
// truncates toward zero with q * d + r == x and |r| < |d|; >> of a
// negative int is arithmetic (gcc, and the model); shifting an unsigned
// left then right clears the top bits. One check runs in a thread, one
// in main, on shared inputs.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int cond);

int x, d;
unsigned int u;

void *divider(void *arg) {
  int q = x / d;
  int r = x % d;
  assert(q * d + r == x);
  assert(r < d || r < -d);
  return 0;
}

int main(void) {
  pthread_t t;
  int neg;
  x = __VERIFIER_nondet_int();
  d = __VERIFIER_nondet_int();
  __VERIFIER_assume(d != 0 && d > -1000 && d < 1000);
  __VERIFIER_assume(x != -2147483647 - 1 || d != -1);
  u = __VERIFIER_nondet_uint();
  pthread_create(&t, 0, divider, 0);
  neg = __VERIFIER_nondet_int();
  __VERIFIER_assume(neg < 0);
  assert(neg > 1u);
  assert((neg >> 1) < 0);
  assert(((u << 4) >> 4) == (u & 0x0fffffffu));
  assert((u >> 31) <= 1u);
  pthread_join(t, 0);
  return 0;
}
