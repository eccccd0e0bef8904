// expect: unsafe
// The assertion fails in the worker's 10th iteration (i == 9, c == 10):
// within unwind 9 no run reaches it, with --unwind 5 the loop's bound is
// reached (worker.unwind.0), and --incremental-bmc finds the violation
// at worker.0's bound 10. Truth: gcc -pthread -m32 and -m64, run: the
// assertion fails (abort).
#include <assert.h>
#include <pthread.h>

int c;

void *worker(void *arg) {
  for (int i = 0; i < 12; i++) {
    c = c + 1;
    assert(c != 10);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
