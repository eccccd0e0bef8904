// expect: unsafe
// bounds: unwind=8
// The C library model: a string a thread copies with strcpy (not a
// literal) is shorter when a nondeterministic choice ends it early, and
// strlen and strcmp read its bytes, so the assertion fails on that run
// (gcc: whenever __VERIFIER_nondet_int() returns 1).
#include <assert.h>
#include <pthread.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
char name[8];
void *writer(void *arg) { strcpy(name, (const char *)arg); return 0; }
int main(void) {
  char word[4];
  word[0] = 'h'; word[1] = 'e'; word[2] = 'y'; word[3] = 0;
  if (__VERIFIER_nondet_int() == 1) word[2] = 0;
  pthread_t t;
  pthread_create(&t, 0, writer, word);
  pthread_join(t, 0);
  assert(strcmp(name, "he") > 0);
  assert(strlen(name) == 3);
  return 0;
}
