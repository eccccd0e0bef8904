// expect: unsafe
// bounds: unwind=2 threads=3
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// `id == 0 && p` with a pointer operand (valid C): the thread given
// &data[1] has id 1 and writes 2, so data[1] == 1 is false.
#include <pthread.h>
#include <assert.h>

int data[2];

void *t(void *arg) {
  int *p = (int *)arg;
  int id = p == &data[0] ? 0 : 1;
  if (id == 0 && p)
    *p = 1;
  else if (p)
    *p = 2;
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, &data[0]);
  pthread_create(&h2, 0, t, &data[1]);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(data[0] == 1 && data[1] == 1);
  return 0;
}
