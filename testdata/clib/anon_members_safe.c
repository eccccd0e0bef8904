// expect: safe
// Members of anonymous structs and unions are members of the containing
// object: read, written, through pointers, designated and positional
// initializers, whole-object copies.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct node { int kind; union { int ival; unsigned uval; }; struct { struct node *next; int depth; }; };
struct node root = { 1, { 7 }, { 0, 2 } };
int main(void) {
  struct node n = { .kind = 2, .depth = 3 };
  struct node *p = &n;
  int v = __VERIFIER_nondet_int();
  p->ival = v;
  p->next = &root;
  assert(n.ival == v && n.next->ival == 7 && n.depth == 3 && root.depth == 2);
  struct node c = n;
  c.depth++;
  assert(c.depth == 4 && n.depth == 3 && c.next == &root && c.ival == v);
  return 0;
}
