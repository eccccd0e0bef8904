// expect: safe
// bounds: unwind=2 threads=3
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// pthread_mutex_t has glibc's size, 24 bytes on i386 and 40 on x86-64, so
// balance lies that many bytes into struct account. Two threads add to it
// under the lock through a char pointer plus offsetof.
#include <pthread.h>
#include <assert.h>
#include <stddef.h>

struct account {
  pthread_mutex_t lock;
  int balance;
};
struct account acc = {PTHREAD_MUTEX_INITIALIZER, 0};

void *t(void *arg) {
  struct account *a = (struct account *)arg;
  pthread_mutex_lock(&a->lock);
  int *b = (int *)((char *)a + offsetof(struct account, balance));
  *b = *b + 1;
  pthread_mutex_unlock(&a->lock);
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, &acc);
  pthread_create(&h2, 0, t, &acc);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(acc.balance == 2);
  assert(sizeof(pthread_mutex_t) == (sizeof(void *) == 8 ? 40 : 24));
  assert(offsetof(struct account, balance) == sizeof(pthread_mutex_t));
  return 0;
}
