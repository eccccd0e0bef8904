// expect: safe
// A writer updates x and y together under the write lock; two readers
// read them under read locks (at the same time, if they like) and always
// see them equal. Afterwards main checks glibc's answers: a try of either
// lock fails with EBUSY while a read lock is held for writing, a second
// read lock succeeds, and the writer's relock is EDEADLK.
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>
#include <errno.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x, y;

void *writer(void *a) {
  pthread_rwlock_wrlock(&rw);
  x++;
  y++;
  pthread_rwlock_unlock(&rw);
  return 0;
}

void *reader(void *a) {
  pthread_rwlock_rdlock(&rw);
  assert(x == y);
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t w, r1, r2;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r1, 0);
  pthread_join(r2, 0);
  assert(pthread_rwlock_tryrdlock(&rw) == 0);
  assert(pthread_rwlock_tryrdlock(&rw) == 0);
  assert(pthread_rwlock_trywrlock(&rw) == EBUSY);
  pthread_rwlock_unlock(&rw);
  pthread_rwlock_unlock(&rw);
  assert(pthread_rwlock_wrlock(&rw) == 0);
  assert(pthread_rwlock_wrlock(&rw) == EDEADLK);
  assert(pthread_rwlock_tryrdlock(&rw) == EBUSY);
  pthread_rwlock_unlock(&rw);
  assert(pthread_rwlock_trywrlock(&rw) == 0);
  pthread_rwlock_unlock(&rw);
  pthread_rwlock_destroy(&rw);
  return 0;
}
