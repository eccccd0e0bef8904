// expect: safe
// Each __VERIFIER_nondet_* returns a value of its type: the bounds hold
// on the call itself (a wider type in the model would exceed them).
#include <assert.h>
#include <limits.h>
#include <stddef.h>
extern _Bool __VERIFIER_nondet_bool(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned int __VERIFIER_nondet_unsigned(void);
extern unsigned int __VERIFIER_nondet_u32(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern long long __VERIFIER_nondet_longlong(void);
extern long long __VERIFIER_nondet_loff_t(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern unsigned long long __VERIFIER_nondet_sector_t(void);
extern size_t __VERIFIER_nondet_size_t(void);
extern void *__VERIFIER_nondet_pointer(void);
extern char *__VERIFIER_nondet_pchar(void);
int main(void) {
  assert(__VERIFIER_nondet_bool() <= 1);
  int c = __VERIFIER_nondet_char();
  assert(c >= -128 && c <= 127);
  assert(__VERIFIER_nondet_uchar() <= 255);
  int s = __VERIFIER_nondet_short();
  assert(s >= -32768 && s <= 32767);
  assert(__VERIFIER_nondet_ushort() <= 65535);
  long long i = __VERIFIER_nondet_int();
  assert(i >= INT_MIN && i <= INT_MAX);
  unsigned long long u = __VERIFIER_nondet_uint();
  assert(u <= UINT_MAX && __VERIFIER_nondet_unsigned() <= UINT_MAX && __VERIFIER_nondet_u32() <= 4294967295u);
  long long l = __VERIFIER_nondet_long();
  assert(l >= LONG_MIN && l <= LONG_MAX && __VERIFIER_nondet_ulong() <= ULONG_MAX);
  assert(__VERIFIER_nondet_size_t() <= (size_t)-1);
  assert(sizeof(__VERIFIER_nondet_longlong()) == 8 && sizeof(__VERIFIER_nondet_loff_t()) == 8);
  assert(sizeof(__VERIFIER_nondet_ulonglong()) == 8 && sizeof(__VERIFIER_nondet_sector_t()) == 8);
  void *p = __VERIFIER_nondet_pointer();
  char *q = __VERIFIER_nondet_pchar();
  (void)p; (void)q;
  return 0;
}
