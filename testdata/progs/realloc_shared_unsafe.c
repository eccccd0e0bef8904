// expect: unsafe
// bounds: unwind=3 threads=2
// A vector on the heap grown by realloc: two threads push 1 and 2 under a
// lock, each growing the block by one element, and main checks it after
// joining them. The second push may run first: then buf[1] is 2 and reach_error is
// reached (the lock orders the pushes but not which comes first).
#include <pthread.h>
#include <stdlib.h>

extern void reach_error(void);

int *buf;
int len;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *push(void *arg) {
  int v = (int)(long)arg;
  pthread_mutex_lock(&m);
  int *nb = realloc(buf, (len + 1) * sizeof(int));
  if (nb) {
    buf = nb;
    buf[len] = v;
    len++;
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  buf = malloc(sizeof(int));
  if (buf == 0)
    return 0;
  buf[0] = 7;
  len = 1;
  pthread_create(&a, 0, push, (void *)1L);
  pthread_create(&b, 0, push, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (buf[1] != 1)
    reach_error();
  free(buf);
  return 0;
}
