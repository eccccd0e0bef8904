// expect: safe
// A variadic function with a body that never reads its variable
// arguments (a stub of printk, as the kernel tasks define it): the extra
// arguments are evaluated and dropped.
#include <assert.h>
int calls;
int logmsg(const char *fmt, ...) { calls++; return 0; }
int main(void) {
  int x = 3;
  logmsg("x=%d\n", x++, x + 1);
  logmsg("none\n");
  assert(calls == 2 && x == 4);
  return 0;
}
