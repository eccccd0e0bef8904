// expect: unsafe
// bounds: unwind=3
// interp: hard
// User-defined atomic lock functions on a pointer parameter (the
// pthread-ext tasks' __VERIFIER_atomic_acquire(&m)), recognised as locks by
// the built-in backend. thr1 checks under a only, and the decrementing
// workers hold b, so count can drop below 0 while thr1 holds a.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#include <pthread.h>

int count = 0;
int mutexa = 0;
int mutexb = 0;

void __VERIFIER_atomic_acquire(int *m) {
  __VERIFIER_assume(*m == 0);
  *m = 1;
}

void __VERIFIER_atomic_release(int *m) {
  __VERIFIER_assume(*m == 1);
  *m = 0;
}

void __VERIFIER_atomic_inc(void) { count = count + 1; }

void __VERIFIER_atomic_dec(void) { count = count - 1; }

void *thr1(void *arg) {
  __VERIFIER_atomic_acquire(&mutexa);
  if (!(count >= 0))
    reach_error();
  __VERIFIER_atomic_release(&mutexa);
  return 0;
}

void *thr2(void *arg) {
  if (__VERIFIER_nondet_int()) {
    __VERIFIER_atomic_acquire(&mutexa);
    __VERIFIER_atomic_inc();
    __VERIFIER_atomic_dec();
    __VERIFIER_atomic_release(&mutexa);
  } else {
    __VERIFIER_atomic_acquire(&mutexb);
    __VERIFIER_atomic_dec();
    __VERIFIER_atomic_inc();
    __VERIFIER_atomic_release(&mutexb);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  pthread_create(&t, 0, thr1, 0);
  for (i = 0; i < 2; i++)
    pthread_create(&t, 0, thr2, 0);
  return 0;
}
