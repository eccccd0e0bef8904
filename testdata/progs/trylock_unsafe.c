// expect: unsafe
// pthread_mutex_trylock fails (EBUSY) while another thread holds the
// mutex: thread 1 keeps it until thread 2 has tried, thread 2 skips its
// update, and main's assertion that both updates happened fails.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
volatile int held, tried;
int counter;

void *t1(void *a) {
  pthread_mutex_lock(&m);
  held = 1;
  while (!tried)
    ;
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *a) {
  while (!held)
    ;
  if (pthread_mutex_trylock(&m) == 0) {
    counter++;
    pthread_mutex_unlock(&m);
  }
  tried = 1;
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(counter == 2);
  return 0;
}
