// expect: safe
// Two loops: main.0 runs 12 times (needs unwind 13), main.1 three times
// (needs unwind 4): --unwind 4 --unwindset main.0:13 proves it with
// unwinding assertions, --unwind 4 alone fails at main.unwind.0. Truth:
// gcc -pthread -m32 and -m64, run: exit 0.
#include <assert.h>

int s;

int main(void) {
  for (int i = 0; i < 12; i++)
    s = s + i;
  for (int j = 0; j < 3; j++)
    s = s - 1;
  assert(s == 63);
  return 0;
}
