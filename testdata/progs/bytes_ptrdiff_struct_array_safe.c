// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// A byte difference over an array of padded structs: struct s is 8 bytes
// (c, 3 bytes of padding, i) on both data models, so &a[2] is 16 bytes
// past &a[0]. The thread turns the byte distance of its argument back
// into an index and writes that element's i.
#include <pthread.h>
#include <assert.h>

struct s {
  char c;
  int i;
};
struct s a[4];

void *t(void *arg) {
  long d = (char *)arg - (char *)&a[0];
  a[d / (long)sizeof(struct s)].i = (int)d;
  return 0;
}

int main(void) {
  pthread_t h;
  assert((char *)&a[2] - (char *)&a[0] == 16);
  pthread_create(&h, 0, t, &a[2]);
  pthread_join(h, 0);
  assert(a[2].i == 16 && a[1].i == 0 && a[3].i == 0);
  return 0;
}
