// expect: safe
// bounds: unwind=2 threads=2
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// Pointer comparison and difference in bytes within one array of padded
// structs (struct s: char at 0, int at 4, 8 bytes): &a[0].i + 4 bytes is
// &a[1], &a[0].i + 1 byte lies between a[0].i and a[1]. The thread
// publishes the addresses it computes; main compares them.
#include <pthread.h>
#include <assert.h>

struct s {
  char c;
  int i;
};
struct s a[2];
char *p1, *p2;

void *t(void *arg) {
  p1 = (char *)&a[0].i + 1;
  p2 = (char *)&a[0].i + 4;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(p2 == (char *)&a[1] && p1 != (char *)&a[1]);
  assert(p1 > (char *)&a[0].i && p1 < (char *)&a[1].c);
  assert(p2 - p1 == 3 && (char *)&a[1].i - p1 == 7);
  return 0;
}
