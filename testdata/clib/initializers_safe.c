// expect: safe
// Initializers as real code writes them: brace elision, nested and GNU
// range designators, designators of members of anonymous members,
// compound literals (scalar, struct, through a pointer).
#include <assert.h>
struct in { int x, y; };
struct s { int a; struct in b; int c[3]; union { int u; unsigned v; }; struct { int p, q; }; };
struct s g1 = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
struct s g2 = { .b.y = 5, 6, .c[1] = 7, 8, .q = 9, .a = 1 };
int r[6] = { [1 ... 3] = 4, [5] = 1 };
struct in arr[2] = { 1, 2, 3 };
int main(void) {
  struct s l = { .c = { 1, 2 }, .b = { .y = 3 }, .u = 4 };
  struct in *p = &(struct in){ 10, 20 };
  int k = (int){ 7 };
  assert(g1.a == 1 && g1.b.x == 2 && g1.b.y == 3 && g1.c[0] == 4 && g1.c[2] == 6 && g1.u == 7 && g1.p == 8 && g1.q == 9);
  assert(g2.b.y == 5 && g2.c[0] == 6 && g2.c[1] == 7 && g2.c[2] == 8 && g2.q == 9 && g2.a == 1 && g2.b.x == 0 && g2.p == 0);
  assert(r[0] == 0 && r[1] == 4 && r[3] == 4 && r[4] == 0 && r[5] == 1);
  assert(arr[0].y == 2 && arr[1].x == 3 && arr[1].y == 0);
  assert(l.c[1] == 2 && l.c[2] == 0 && l.b.y == 3 && l.b.x == 0 && l.u == 4 && l.q == 0);
  assert(p->y == 20 && k == 7);
  return 0;
}
