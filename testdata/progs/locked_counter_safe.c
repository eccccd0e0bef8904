// expect: safe
// bounds: unwind=3 threads=2
// unwinding: 2 fails worker.unwind.0
// unwinding: 3 holds
// The lazy counter with a mutex: every increment happens while holding m,
// so no update is lost and after both threads ran their two increments the
// counter is exactly 4.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *worker(void *arg) {
  int i;
  for (i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    counter = counter + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 4);
  return 0;
}
