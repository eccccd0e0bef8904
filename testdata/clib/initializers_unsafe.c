// expect: unsafe
// After the nested designator .b.y = 5 the next item goes to the member
// after b.y, which is c[0] (C11 6.7.9p17): not to b.x.
#include <assert.h>
struct in { int x, y; };
struct s { int a; struct in b; int c[3]; };
struct s g = { .b.y = 5, 6 };
int main(void) {
  assert(g.b.x == 6);
  return 0;
}
