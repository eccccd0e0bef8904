// expect: safe
// __builtin_expect is its first argument, __builtin_constant_p is 1 on an
// integer constant expression and 0 on a variable (gcc -O0),
// __builtin_offsetof is the member's offset, __builtin_unreachable is
// never reached, alloca and __builtin_alloca give fresh blocks, and the
// __builtin_ forms of library functions are those functions.
#include <assert.h>
#include <stddef.h>
#include <string.h>
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);
struct s { char c; int i; };
int main(void) {
  int x = __VERIFIER_nondet_int();
  assert(__builtin_expect(x == 3, 0) == (x == 3));
  assert(__builtin_constant_p(7) == 1);
  assert(__builtin_constant_p(x) == 0);
  assert(__builtin_offsetof(struct s, i) == 4 && offsetof(struct s, i) == 4);
  if (x > 5 && x < 3)
    __builtin_unreachable();
  int *a = __builtin_alloca(3 * sizeof(int));
  a[0] = 1; a[2] = x;
  int *b = alloca(sizeof(int));
  *b = 2;
  assert(a[0] + *b == 3 && a[2] == x);
  int d[2];
  __builtin_memset(d, 0, sizeof d);
  assert(d[1] == 0);
  return 0;
}
