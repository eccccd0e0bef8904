// expect: safe
// Two threads add to a counter under a spin lock, one with
// pthread_spin_lock, one retrying pthread_spin_trylock until it succeeds
// (EBUSY while the other holds it): no update is lost. Afterwards the
// lock is free: a trylock succeeds, and a second one fails with EBUSY
// (glibc's spin locks do not know their owner).
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>
#include <errno.h>

pthread_spinlock_t s;
int counter;

void *t1(void *a) {
  pthread_spin_lock(&s);
  counter++;
  pthread_spin_unlock(&s);
  return 0;
}

void *t2(void *a) {
  while (pthread_spin_trylock(&s) != 0)
    ;
  counter++;
  pthread_spin_unlock(&s);
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
  assert(pthread_spin_trylock(&s) == 0);
  assert(pthread_spin_trylock(&s) == EBUSY);
  pthread_spin_unlock(&s);
  pthread_spin_destroy(&s);
  return 0;
}
