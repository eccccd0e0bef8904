// expect: safe
// bounds: unwind=4 threads=3
// Threads spawned in a loop into an array of handles. Each thread gets a
// pointer to its own slot of ids[] (never changed afterwards), so thread i
// writes data[i] = i + 1; after joining all, the sum is 1 + 2 + 3.
#include <pthread.h>
#include <assert.h>

#define N 3

int data[N];
int ids[N];

void *worker(void *arg) {
  int id = *(int *)arg;
  data[id] = id + 1;
  return 0;
}

int main(void) {
  pthread_t th[N];
  int i;
  for (i = 0; i < N; i++) {
    ids[i] = i;
    pthread_create(&th[i], 0, worker, &ids[i]);
  }
  for (i = 0; i < N; i++)
    pthread_join(th[i], 0);
  assert(data[0] + data[1] + data[2] == 6);
  return 0;
}
