// expect: unsafe
// Thread-specific data is per thread: the value thread 1 set is not the
// one thread 2 reads (NULL), so the assertion fails in every run.
// gcc -pthread -m32 and -m64, 200 runs each: the assertion failed in all.
#include <pthread.h>
#include <assert.h>

pthread_key_t key;
int a;

void *t1(void *arg) {
  pthread_setspecific(key, &a);
  return 0;
}

void *t2(void *arg) {
  assert(pthread_getspecific(key) == &a);
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_key_create(&key, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h2, 0);
  return 0;
}
