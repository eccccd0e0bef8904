// expect: safe
// pthread_self in a thread is the id pthread_create stored in its handle;
// it differs from main's and from the other thread's (pthread_equal).
// gcc -pthread -m32 and -m64, 200 runs each: no assertion failed.
#include <pthread.h>
#include <assert.h>

pthread_t seen[2];
int ids[2] = {0, 1};

void *t(void *arg) {
  seen[*(int *)arg] = pthread_self();
  return 0;
}

int main(void) {
  pthread_t h0, h1, me = pthread_self();
  pthread_create(&h0, 0, t, &ids[0]);
  pthread_create(&h1, 0, t, &ids[1]);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  assert(pthread_equal(seen[0], h0) && pthread_equal(seen[1], h1));
  assert(!pthread_equal(seen[0], seen[1]));
  assert(!pthread_equal(seen[0], me) && pthread_equal(pthread_self(), me));
  return 0;
}
