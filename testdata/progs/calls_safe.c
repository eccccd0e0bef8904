// expect: safe
// bounds: unwind=3 threads=2
// Threads that call functions: through a pointer passed by the start
// routine (inc or dec, each under the lock), a recursive one (twice), a
// user-defined atomic one, and one that ends the thread with pthread_exit
// (the dec thread ends after its first call, before its atomic call). g
// ends 1 + 1 - 1 = 1 and h 2 in every run (gcc -m32 and -m64, 1000 runs
// each; the explicit-state search explores every run).
#include <pthread.h>
#include <assert.h>

int g, h;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void inc(int *p) {
  pthread_mutex_lock(&m);
  (*p)++;
  pthread_mutex_unlock(&m);
}

void dec(int *p) {
  pthread_mutex_lock(&m);
  (*p)--;
  pthread_mutex_unlock(&m);
}

int twice(int x) {
  if (x > 0)
    return twice(x - 1) + 2;
  return 0;
}

int __VERIFIER_atomic_add(int *p, int v) {
  *p += v;
  return *p;
}

void finish(int r) {
  if (r)
    pthread_exit((void *)0);
}

void work(void (*f)(int *), int last) {
  f(&g);
  finish(last);
  f(&g);
  __VERIFIER_atomic_add(&h, twice(1));
  return;
}

void *up(void *arg) {
  work(inc, 0);
  return 0;
}

void *down(void *arg) {
  work(dec, 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, up, 0);
  pthread_create(&b, 0, down, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(g == 1 && h == 2);
  return 0;
}
