// expect: safe
// f recurses 6 deep below its first call (7 activations at most): --unwind 3
// --unwindset f:7 proves it with unwinding assertions, f:6 fails at
// f.recursion (the bound of the calls f makes). Truth: gcc -pthread -m32 and
// -m64, run: exit 0.
#include <assert.h>

int f(int n) {
  if (n == 0)
    return 0;
  return n + f(n - 1);
}

int main(void) {
  assert(f(6) == 21);
  return 0;
}
