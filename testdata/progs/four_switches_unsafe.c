// expect: unsafe
// bounds: unwind=3 threads=2
// A bug that needs at least four context switches. The writer stores 1, 2,
// 3 into x; the reader samples x three times. Seeing exactly 1, 2, 3 needs
// the order w(1) r w(2) r w(3) r, i.e. five switches between the two
// threads (after main has created both). Bounded context-switch tools with
// fewer than four switches call this program safe.
#include <pthread.h>
#include <assert.h>

int x = 0;

void *writer(void *arg) {
  x = 1;
  x = 2;
  x = 3;
  return 0;
}

void *reader(void *arg) {
  int a, b, c;
  a = x;
  b = x;
  c = x;
  assert(!(a == 1 && b == 2 && c == 3));
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
