// expect: unsafe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// struct account is 28 bytes on i386 and 44 on x86-64 (glibc's
// pthread_mutex_t is 24 or 40), never two ints: a model with a one-int
// mutex proves this assertion.
#include <pthread.h>
#include <assert.h>

struct account {
  pthread_mutex_t lock;
  int balance;
};
struct account acc = {PTHREAD_MUTEX_INITIALIZER, 0};
unsigned long size;

void *t(void *arg) {
  pthread_mutex_lock(&acc.lock);
  size = sizeof(struct account);
  pthread_mutex_unlock(&acc.lock);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(size == 2 * sizeof(int));
  return 0;
}
