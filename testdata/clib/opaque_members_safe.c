// expect: safe
// A struct with bit-fields, floating-point members and a flexible array
// member, used only through its other members (kernel-style code), and a
// floating-point local that is never used: no run computes with them.
#include <assert.h>
#include <stdlib.h>
struct kobj { const char *name; unsigned initialized : 1; unsigned busy : 1; int refs; double weight; int data[]; };
struct kobj k = { .name = "k", .refs = 1 };
int main(void) {
  double unused = 0.5;
  struct kobj copy;
  k.refs++;
  copy = k;
  struct kobj *h = malloc(sizeof(struct kobj));
  if (h == 0) return 0;
  h->refs = copy.refs;
  assert(h->refs == 2 && copy.name == k.name);
  free(h);
  return 0;
}
