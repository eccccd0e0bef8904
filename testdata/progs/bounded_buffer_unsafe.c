// expect: unsafe
// bounds: unwind=3 threads=2
// Two producers append to a buffer without a lock: buf[in] = v; in = in + 1.
// If both read in == 0 before either increments it, both write buf[0], one
// item is lost (buf[1] stays 0) and the sum checked after the joins is not
// 1 + 2.
#include <pthread.h>
#include <assert.h>

#define SIZE 2

int buf[SIZE];
int in = 0;

void *producer(void *arg) {
  int v = *(int *)arg;
  int slot = in;
  buf[slot] = v;
  in = slot + 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  int one = 1, two = 2;
  pthread_create(&a, 0, producer, &one);
  pthread_create(&b, 0, producer, &two);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(buf[0] + buf[1] == 3);
  return 0;
}
