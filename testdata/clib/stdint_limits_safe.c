// expect: safe
// The limits of <stdint.h> and <limits.h> are those of glibc in both data
// models: each is the extreme value of its type.
#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
int main(void) {
  assert(SIZE_MAX == (size_t)-1 && UINTPTR_MAX == (uintptr_t)-1 && UINTMAX_MAX == (uintmax_t)-1);
  assert(INTPTR_MAX == (intptr_t)(UINTPTR_MAX >> 1) && PTRDIFF_MIN == -PTRDIFF_MAX - 1);
  assert(INT8_MIN == -128 && INT8_MAX == 127 && UINT8_MAX == 255);
  assert(INT16_MIN == -32768 && INT16_MAX == 32767 && UINT16_MAX == 65535);
  assert(INT32_MIN == -INT32_MAX - 1 && UINT32_MAX == 4294967295u);
  assert(INT64_MAX == 9223372036854775807LL && INT64_MIN == -INT64_MAX - 1 && UINT64_MAX == (uint64_t)-1);
  assert(INT_FAST16_MAX == (int_fast16_t)((uint_fast16_t)-1 >> 1) && UINT_FAST32_MAX == (uint_fast32_t)-1);
  assert(INT_LEAST8_MAX == 127 && UINT_LEAST64_MAX == UINT64_MAX && INTMAX_MIN == INT64_MIN);
  assert(sizeof(int64_t) == 8 && sizeof(intptr_t) == sizeof(void *) && sizeof(int_fast16_t) == sizeof(long));
  assert(INT64_C(1) << 40 == 1099511627776LL && UINT32_C(1) == 1u && UINTMAX_C(2) == 2);
  assert(CHAR_BIT == 8 && SCHAR_MIN == -128 && UCHAR_MAX == 255 && SHRT_MIN == -32768 && USHRT_MAX == 65535);
  assert(INT_MIN == -INT_MAX - 1 && UINT_MAX == (unsigned)-1 && LONG_MAX == (long)(ULONG_MAX >> 1));
  assert(LLONG_MIN == -LLONG_MAX - 1 && ULLONG_MAX == (unsigned long long)-1 && SSIZE_MAX == LONG_MAX);
  return 0;
}
