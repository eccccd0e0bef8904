// expect: unsafe
// pthread_exit called from a function the thread calls (not its start
// routine) ends the thread there with the value passed: the code after
// the call never runs, and pthread_join stores the value. The second
// assertion fails in every run: the thread's result is &b.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

int a, b, after;

void finish(int k) {
  if (k)
    pthread_exit(&b);
}

void *t(void *arg) {
  finish(1);
  after = 1;
  return &a;
}

int main(void) {
  pthread_t h;
  void *r;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, &r);
  assert(after == 0);
  assert(r == &a);
  return 0;
}
