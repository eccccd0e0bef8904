// expect: unsafe
// The writer takes only a read lock, which does not exclude a reader:
// the reader gets its read lock between the writer's two updates (the
// flags make the real runs wait for that moment) and sees x != y.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t rw;
volatile int wrote, seen;
int x, y;

void *writer(void *a) {
  pthread_rwlock_rdlock(&rw);
  x++;
  wrote = 1;
  while (!seen)
    ;
  y++;
  pthread_rwlock_unlock(&rw);
  return 0;
}

void *reader(void *a) {
  while (!wrote)
    ;
  pthread_rwlock_rdlock(&rw);
  assert(x == y);
  seen = 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
