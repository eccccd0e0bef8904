// expect: unsafe
// Threads that end with a value drawn nondeterministically (the
// pthread-wmm tasks return __VERIFIER_nondet_pointer-like values; one
// thread returns it, the other passes it to pthread_exit). The assertion
// fails when main reads x between worker's two stores: worker's x = 1
// runs, then main's read. Argument, not runs (a rare window for gcc -m32
// and -m64 builds): the schedule main creates both threads, worker stores
// 1, main reads x == 1 is allowed by POSIX (no synchronisation orders the
// accesses), so some run violates the assertion.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x = 0;

void *worker(void *arg) {
  x = 1;
  x = 2;
  return (void *)(long)__VERIFIER_nondet_int();
}

void *exiter(void *arg) {
  pthread_exit((void *)(long)__VERIFIER_nondet_int());
}

int main(void) {
  pthread_t t, u;
  void *r;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&u, 0, exiter, 0);
  assert(x != 1);
  pthread_join(t, &r);
  pthread_join(u, &r);
  return 0;
}
