// expect: safe
// bounds: unwind=8
// The C library model (frontend/libmodel.go, frontend/libc/string.c):
// memcpy between different element types and of a non-constant size,
// memmove of overlapping ranges in both directions, memset of part of an
// int, memcmp, strlen, strcpy and strncpy from strings that are not
// literals (one written by a thread), strcmp and strncmp with their signs:
// byte by byte, as glibc computes them, on both data models.
#include <assert.h>
#include <pthread.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
char name[8];
void *writer(void *arg) { strcpy(name, (const char *)arg); return 0; }
int main(void) {
  unsigned int w = 0x04030201u;
  unsigned char b[4];
  memcpy(b, &w, sizeof w); /* an int's bytes, little-endian */
  assert(b[0] == 1 && b[3] == 4);
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) n = 4;
  char src[5] = "wxyz", dst[5] = "....";
  memcpy(dst, src, n); /* a non-constant size */
  assert(n == 0 || dst[n - 1] == src[n - 1]);
  assert(n == 4 || dst[n] == '.');
  char buf[6] = "abcde";
  memmove(buf + 1, buf, 3); /* "aabce" */
  assert(buf[1] == 'a' && buf[3] == 'c' && buf[4] == 'e');
  memmove(buf, buf + 2, 3); /* "bcece" */
  assert(buf[0] == 'b' && buf[1] == 'c' && buf[2] == 'e');
  unsigned int z = 0xffffffffu;
  memset(&z, 0, 2);
  assert(z == 0xffff0000u);
  assert(memcmp("abc", "abd", 3) < 0 && memcmp("abc", "abd", 2) == 0);
  char word[4];
  word[0] = 'h'; word[1] = 'e'; word[2] = 'y'; word[3] = 0;
  pthread_t t;
  pthread_create(&t, 0, writer, word);
  pthread_join(t, 0);
  assert(strlen(name) == 3 && strcmp(name, "hey") == 0);
  assert(strcmp(name, "hez") < 0 && strcmp("hez", name) > 0 && strcmp(name, "he") > 0);
  assert(strncmp(name, "hex", 2) == 0 && strncmp(name, "hex", 3) != 0);
  char pad[6];
  strncpy(pad, word, 6);
  assert(pad[2] == 'y' && pad[3] == 0 && pad[5] == 0);
  return 0;
}
