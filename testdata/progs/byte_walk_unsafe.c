// expect: unsafe
// bounds: unwind=5
// Issue 26: byte_walk_safe.c with a wrong byte sum (the bytes of x[0] sum to 10).
// truth: gcc -m32/-m64, 200 runs each, assertion 2 fails every run.
#include <assert.h>
struct s { char c; int i; } a[4];
int main(void) { long d = (char *)&a[2] - (char *)&a[0]; assert(d == 16); 
  int x[4] = {0x04030201, 0, 0, 0x7f000000}; unsigned char *p = (unsigned char *)x; int sum = 0;
  for (int k = 0; k < 4; k++) sum += p[k];
  assert(sum == 11); assert(p[15] == 0x7f);
  unsigned int y = 0; unsigned char *q = (unsigned char *)&y; q[1] = 0xab; assert(y == 0xab00);
  return 0; }
