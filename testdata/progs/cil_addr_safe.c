// expect: safe
// bounds: unwind=2 threads=2
// data model: ILP32 (CIL's 32-bit integer addresses: gcc -m64 truncates them, the runs crash)
// CIL-style integer address arithmetic (frontend/addrint.go): the byte
// offsets 12 and 4*n designate s.n and s.a[n]; after the join main sees
// exactly the worker's writes and nothing else moved.
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
  *((int *)t2) = t4 + 1;
  return 0;
}

int main(void) {
  pthread_t t;
  s.n = 2;
  pthread_create(&t, 0, w, &s);
  pthread_join(t, 0);
  if (s.a[2] != 7 || s.n != 3 || s.a[0] != 0 || s.a[1] != 0)
    reach_error();
  return 0;
}
