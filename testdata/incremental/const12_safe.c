// expect: safe
// Loops with the constant bound 12: both need unwind 13 to be left (the
// back edge is taken 12 times), so --unwind 5 --unwinding-assertions
// fails at worker.unwind.0 or main.unwind.0 and --incremental-bmc proves
// the program once each loop's bound is 20 (5, 10, 20). Truth: gcc
// -pthread -m32 and -m64, run: exit 0.
#include <assert.h>
#include <pthread.h>

int a[12];

void *worker(void *arg) {
  for (int i = 0; i < 12; i++)
    a[i] = i;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  for (int i = 0; i < 12; i++)
    assert(a[i] == i);
  return 0;
}
