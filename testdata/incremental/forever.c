// expect: safe
// An infinite loop: the assertion holds in every run (c only grows
// modulo 2^32 and is never compared but with itself), and no bound covers
// the loop, so with --unwinding-assertions every bound fails and
// --incremental-bmc deepens main.0 until the time runs out (UNKNOWN
// naming the last bound a run reached). Truth by this argument (a run
// never ends: gcc's binary is not run).
#include <assert.h>

unsigned c;

int main(void) {
  while (1) {
    c = c + 1;
    assert(c == c);
  }
  return 0;
}
