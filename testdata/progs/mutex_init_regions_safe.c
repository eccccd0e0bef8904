// expect: safe
// bounds: unwind=2
// Lock regions of a mutex initialised by pthread_mutex_init in main
// before any thread: the backend runs each region as one block. In one
// region, t1 writes x and reads it back, so it reads its own write.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int x, y;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  y = x;
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m);
  x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(y == 1);
  return 0;
}
