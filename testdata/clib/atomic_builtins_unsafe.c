// expect: unsafe
// A failed compare-exchange writes the current value into *expected: the
// assertion that expected kept its value fails in every run.
#include <assert.h>
int x = 1;
int main(void) {
  int e = 2;
  __atomic_compare_exchange_n(&x, &e, 3, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  assert(e == 2);
  return 0;
}
