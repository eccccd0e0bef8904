// expect: safe
// A table of operations (driver-style): the call through the int (*)(void)
// pointer can reach only functions of that type; the others in the table
// (one without a body) are named but never called.
#include <assert.h>
extern void dump(int *state, unsigned index) __attribute__((weak)); /* no definition: weak for the linker */
static int count;
static int init(void) { count = 1; return 0; }
static int get(unsigned i) { return count + (int)i; }
struct ops { int (*init)(void); int (*get)(unsigned); void (*dump)(int *, unsigned); };
struct ops table = { .init = init, .get = get, .dump = dump };
int (*entry)(void) = init;
int main(void) {
  int r = entry();
  assert(r == 0 && count == 1);
  assert(table.get != 0 && table.init == entry);
  return 0;
}
