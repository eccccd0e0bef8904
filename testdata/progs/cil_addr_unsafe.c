// expect: unsafe
// bounds: unwind=2 threads=2
// data model: ILP32 (CIL's 32-bit integer addresses: gcc -m64 truncates them, the runs crash)
// CIL-style integer address arithmetic (frontend/addrint.go): the worker
// writes s.a[s.n] through byte offsets; main reads s.a[1] without waiting.
#include <pthread.h>

extern void reach_error(void);

struct S {
  int a[3];
  int n;
};
struct S s;

void *w(void *arg) {
  struct S *q = (struct S *)arg;
  unsigned int t1, t2, t3;
  int t4;
  t1 = (unsigned int)q;
  t2 = t1 + 12;
  t4 = *((int *)t2);
  t3 = t1 + (unsigned int)t4 * 4U;
  *((int *)t3) = 7;
  return 0;
}

int main(void) {
  pthread_t t;
  s.n = 1;
  pthread_create(&t, 0, w, &s);
  if (s.a[1] == 7)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
