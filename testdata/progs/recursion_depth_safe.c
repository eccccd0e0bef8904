// expect: safe
// bounds: unwind=4
// unwinding: 3 fails sum.recursion
// unwinding: 4 holds
// A thread sums 0..n recursively for n in 0..3 while main adds to a
// locked counter; sum(3) has four activations of sum on the thread's
// stack (sum(3), sum(2), sum(1), sum(0)), so unwind 4 covers every run
// and unwind 3 cuts the runs with n = 3 (CBMC's recursion unwinding
// assertion, named after the function that makes the call).
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total = 0;

int sum(int n) {
  if (n == 0)
    return 0;
  return n + sum(n - 1);
}

void *worker(void *arg) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 3);
  int s = sum(n);
  pthread_mutex_lock(&m);
  total = total + s;
  pthread_mutex_unlock(&m);
  assert(s == n * (n + 1) / 2);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  total = total + 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(total >= 1 && total <= 7);
  return 0;
}
