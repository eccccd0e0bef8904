// expect: unsafe
// bounds: unwind=4 threads=3
// The classic loop-variable bug: every thread gets &i, the address of the
// loop counter, and reads it only when it runs. If main has already moved
// on, two threads see the same index (or N, which the bounds check
// ignores), some data[k] stays 0 and the assertion fails.
#include <pthread.h>
#include <assert.h>

#define N 3

int data[N];

void *worker(void *arg) {
  int id = *(int *)arg;
  if (id >= 0 && id < N)
    data[id] = 1;
  return 0;
}

int main(void) {
  pthread_t th[N];
  int i;
  for (i = 0; i < N; i++)
    pthread_create(&th[i], 0, worker, &i);
  for (i = 0; i < N; i++)
    pthread_join(th[i], 0);
  assert(data[0] + data[1] + data[2] == N);
  return 0;
}
