// expect: safe
// bounds: unwind=3 threads=2
// unwinding: 2 fails producer.unwind.1 consumer.unwind.0 consumer.unwind.1
// unwinding: 3 fails consumer.unwind.0
// Producer/consumer over a bounded buffer (array + in/out indices + count),
// every access under one mutex. A full or empty buffer is waited for by
// releasing and re-taking the lock. The consumer receives 1 then 2, in order.
// The consumer may wait for the producer for ever, so no unwinding suffices
// for its inner loop (its unwinding assertion fails at every bound; the
// producer never waits: the buffer holds both items); the outer
// loops iterate twice and need unwind 3.
#include <pthread.h>
#include <assert.h>

#define SIZE 2

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int buf[SIZE];
int in = 0, out = 0, count = 0;

void *producer(void *arg) {
  int v;
  for (v = 1; v <= 2; v++) {
    pthread_mutex_lock(&m);
    while (count == SIZE) {
      pthread_mutex_unlock(&m);
      pthread_mutex_lock(&m);
    }
    buf[in] = v;
    in = (in + 1) % SIZE;
    count++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  int expected, v;
  for (expected = 1; expected <= 2; expected++) {
    pthread_mutex_lock(&m);
    while (count == 0) {
      pthread_mutex_unlock(&m);
      pthread_mutex_lock(&m);
    }
    v = buf[out];
    out = (out + 1) % SIZE;
    count--;
    pthread_mutex_unlock(&m);
    assert(v == expected);
  }
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
