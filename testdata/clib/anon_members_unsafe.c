// expect: unsafe
// The anonymous union's members share storage: both names are the one int
// a nondeterministic value was written to.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct node { int kind; union { int ival; int alias; }; };
int main(void) {
  struct node n;
  n.ival = __VERIFIER_nondet_int();
  assert(n.alias != 0);
  return 0;
}
