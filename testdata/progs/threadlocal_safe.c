// expect: safe
// bounds: unwind=2 threads=2
// Each thread counts in its own __thread copy (frontend/tls.go), starting
// from the initializer, through a helper: no thread sees another's count.
#include <pthread.h>

extern void reach_error(void);

__thread int n = 10;
int done;

void bump(void) { n = n + 1; }

void *w(void *arg) {
  bump();
  bump();
  if (n != 12)
    reach_error();
  done = done + 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  bump();
  if (n != 11)
    reach_error();
  return 0;
}
