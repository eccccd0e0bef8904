// expect: safe
// bounds: unwind=2 threads=4
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// `id == 0 && p` with a pointer operand is valid C (a scalar operand of
// &&, compared with 0): each thread writes through its argument when it
// is not null, 1 for the first element and 2 for the other; the thread
// given a null pointer writes nothing.
#include <pthread.h>
#include <assert.h>

int data[2];

void *t(void *arg) {
  int *p = (int *)arg;
  int id = p == &data[0] ? 0 : 1;
  if (id == 0 && p)
    *p = 1;
  else if (p && id != 0)
    *p = 2;
  return 0;
}

int main(void) {
  pthread_t h1, h2, h3;
  pthread_create(&h1, 0, t, &data[0]);
  pthread_create(&h2, 0, t, &data[1]);
  pthread_create(&h3, 0, t, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  pthread_join(h3, 0);
  assert(data[0] == 1 && data[1] == 2);
  return 0;
}
