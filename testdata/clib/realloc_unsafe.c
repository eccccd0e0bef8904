// expect: unsafe
// realloc keeps the first min(old, new) elements and nothing else: after
// growing a block of nondet size n by one element, element n-1 is the
// old block's, so the assertion fails in every run.
#include <assert.h>
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint() % 3 + 1;
  int *r = malloc(n * sizeof(int));
  if (!r) return 0;
  for (unsigned i = 0; i < n; i++)
    r[i] = 20 + i;
  int *t = realloc(r, (n + 1) * sizeof(int));
  if (!t) return 0;
  t[n] = 0;
  assert(t[n - 1] != 20 + n - 1);
  free(t);
  return 0;
}
