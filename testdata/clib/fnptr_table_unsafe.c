// expect: unsafe
// The call through the table reaches get, whose result is the count plus
// the index: the assertion fails.
#include <assert.h>
static int count = 1;
static int get(unsigned i) { return count + (int)i; }
struct ops { int (*get)(unsigned); };
struct ops table = { get };
int main(void) {
  struct ops *o = &table;
  assert(o->get(2) == 2);
  return 0;
}
