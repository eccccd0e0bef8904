// expect: unsafe
// bounds: unwind=3 threads=2
// interp: hard
// A nondeterministic 32-bit input must take one exact value: the worker
// publishes key = input, and the checker fails only when it sees
// 0x7a3f19c2. A BMC finds it at once (nondet values range over the whole
// type); random simulation essentially never does.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int key = 0;
int published = 0;

void *worker(void *arg) {
  int input = __VERIFIER_nondet_int();
  key = input;
  published = 1;
  return 0;
}

void *checker(void *arg) {
  if (published == 1)
    assert(key != 0x7a3f19c2);
  return 0;
}

int main(void) {
  pthread_t w, c;
  pthread_create(&w, 0, worker, 0);
  pthread_create(&c, 0, checker, 0);
  pthread_join(w, 0);
  pthread_join(c, 0);
  return 0;
}
