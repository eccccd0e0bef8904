// expect: unsafe
// bounds: unwind=2
// Each thread has its own copy of a __thread variable (frontend/tls.go):
// the worker's store does not reach main's copy, which stays 0.
#include <pthread.h>

extern void reach_error(void);

__thread int x = 0;

void set(void) { x = 1; }

void *w(void *arg) {
  set();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  if (x != 1)
    reach_error();
  return 0;
}
