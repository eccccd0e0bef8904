// expect: safe
// realloc as glibc behaves: growing and shrinking keep the first
// min(old, new) elements; realloc(NULL, n) is malloc(n); realloc(p, 0)
// frees p and returns NULL (glibc's REALLOC_ZERO_BYTES_FREES); a block of
// nondet size grows by one element and keeps its contents; a void *
// result tested against NULL before it is assigned is the same block. malloc never
// fails here (no --malloc-may-fail), so a failed realloc leaves the run.
#include <assert.h>
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
struct pair { int a; char b; };
unsigned long h = 1;
int main(void) {
  int *p = malloc(2 * sizeof(int));
  if (!p) return 0;
  p[0] = 10; p[1] = 11;
  int *q = realloc(p, 4 * sizeof(int));
  if (!q) return 0;
  q[2] = 12; q[3] = 13;
  assert(q[0] == 10 && q[1] == 11 && q[2] == 12 && q[3] == 13);
  q = realloc(q, sizeof *q);
  if (!q) return 0;
  assert(q[0] == 10);
  free(q);
  struct pair *s = realloc(0, sizeof(struct pair));
  if (!s) return 0;
  s->a = 7; s->b = 'x';
  s = realloc(s, 3 * sizeof *s);
  if (!s) return 0;
  assert(s[0].a == 7 && s[0].b == 'x');
  s[2].a = 9;
  s = realloc(s, 0);
  assert(s == 0);
  unsigned n = __VERIFIER_nondet_uint() % 3 + 1;
  long *r = malloc(n * sizeof(long));
  if (!r) return 0;
  for (unsigned i = 0; i < n; i++)
    r[i] = 100 + i;
  long *t = realloc(r, (n + 1) * sizeof(long));
  if (!t) return 0;
  t[n] = 5;
  assert(t[0] == 100 && t[n - 1] == 100 + n - 1 && t[n] == 5);
  free(t);
  // the idiom that keeps the block when realloc fails: a void * result,
  // tested, then assigned (realloc does not fail here, so tmp is the block)
  int *buf = malloc(2 * sizeof(int));
  if (!buf) return 0;
  buf[0] = 4;
  void *tmp = realloc(buf, 4 * sizeof(int));
  if (tmp == NULL) {
    free(buf);
    return 0;
  }
  buf = tmp;
  buf[3] = 1;
  assert(buf[0] == 4 && buf[3] == 1);
  free(buf);
  // sizes that are not constants: (h / 2) * sizeof(int) is zero bytes (a
  // null result), h + 1 is two bytes (a block, though less than an int)
  int *z = malloc(sizeof(int));
  if (!z) return 0;
  z = realloc(z, (h / 2) * sizeof(int));
  assert(z == 0);
  int *w = malloc(sizeof(int));
  if (!w) return 0;
  w = realloc(w, h + 1);
  assert(w != 0);
  free(w);
  return 0;
}
