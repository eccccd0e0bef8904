// expect: unsafe
// bounds: unwind=3 threads=2
// pthread_cond_wait under `if` instead of `while`. POSIX allows spurious
// wake-ups (and the model lets a wait return at any time after the mutex
// was released and re-acquired), so the consumer can leave the wait with
// ready == 0 and read data == 0.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 42;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  if (ready == 0)
    pthread_cond_wait(&c, &m);
  assert(data == 42);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&q, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
