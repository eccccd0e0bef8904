// expect: unsafe
// pthread_spin_trylock fails (EBUSY) while another thread holds the
// lock: thread 1 takes the lock and keeps it until thread 2 has tried, so
// thread 2's trylock fails and it skips its update; main's assertion that
// both updates happened fails.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

pthread_spinlock_t s;
volatile int held, tried;
int counter;

void *t1(void *a) {
  pthread_spin_lock(&s);
  held = 1;
  while (!tried)
    ;
  counter++;
  pthread_spin_unlock(&s);
  return 0;
}

void *t2(void *a) {
  while (!held)
    ;
  if (pthread_spin_trylock(&s) == 0) {
    counter++;
    pthread_spin_unlock(&s);
  }
  tried = 1;
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(counter == 2);
  return 0;
}
