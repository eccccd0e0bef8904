// expect: safe
// bounds: unwind=3 threads=2
// Wrap-around that is accounted for. Two threads add nondet amounts to an
// unsigned char and to a signed char under a lock and also record them;
// main checks the results modulo 256: (unsigned char)(250 + da + db) and
// (signed char)(120 + da + db), which wraps to negative values (gcc and
// the model convert out-of-range values to signed char modulo 256).
#include <pthread.h>
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned char u = 250;
signed char s = 120;
int total = 0;

void *add(void *arg) {
  unsigned char d = __VERIFIER_nondet_uchar();
  pthread_mutex_lock(&m);
  u = u + d;
  s = s + d;
  total = total + d;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(u == (unsigned char)(250 + total));
  assert(s == (signed char)(120 + total));
  assert(total <= 510);
  return 0;
}
