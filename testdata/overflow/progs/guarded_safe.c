// expect: no overflow
// nondet: 2
// Near misses of every checked operation, and operations C evaluates only
// when they cannot overflow (the right operand of && and ||, a branch of
// ?:, an if), with unsigned wrap-around and promoted char/short
// arithmetic, which are not signed overflows. Decided by gcc
// -fsanitize=signed-integer-overflow,shift, -m32 and -m64, over every
// choice.
#include <pthread.h>
#include <limits.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int c = 1900000000, x, y, z1, z2, z3, sq, q, r, sh;
long long a, b;
unsigned u = UINT_MAX;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k && k <= 1);
  pthread_mutex_lock(&m);
  c = c + 100000000 * k;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, add, 0);
  pthread_create(&t2, 0, add, 0);
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= k && k <= 3);
  x = INT_MAX - 3 + k;
  if (x < INT_MAX)
    y = x + 1;
  z1 = x != INT_MAX && x + 1 > 0;
  z2 = x == INT_MAX || x + 1 > 0;
  z3 = x < INT_MAX ? x + 1 : 0;
  sq = (46200 - k) * (46200 - k);
  q = (INT_MIN + 1) / -1 + (INT_MIN + k) / (k + 1) + (INT_MIN + k) % 2;
  r = -(INT_MIN + 1 + k);
  sh = (1 << (27 + k)) + (-1 >> k);
  a = LLONG_MAX - 5 + k + 2;
  b = (3037000499LL - k) * (3037000499LL - k);
  u = u + 1;
  signed char ch = 127;
  short s = 32767;
  x = ch + 1 + s + 1;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
