// expect: safe
// __builtin_bswap16/32/64 reverse the bytes of their argument: twice is
// the identity, and each byte moves to its mirror position.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned long long y = __VERIFIER_nondet_ulonglong();
  unsigned short h = (unsigned short)x;
  assert(__builtin_bswap32(0x12345678u) == 0x78563412u);
  assert(__builtin_bswap16(0xabcd) == 0xcdab);
  assert(__builtin_bswap64(0x0102030405060708ULL) == 0x0807060504030201ULL);
  assert(__builtin_bswap32(__builtin_bswap32(x)) == x);
  assert((__builtin_bswap32(x) & 0xff) == x >> 24);
  assert(__builtin_bswap16(h) == (unsigned short)((h >> 8) | (h << 8)));
  assert(__builtin_bswap64(y) >> 56 == (y & 0xff));
  return 0;
}
