/* cegpv's C library model: the functions of <string.h> that the front end
   cannot lower to element-wise stores (frontend/libmodel.go), as C that
   computes byte by byte over the program's memory model, as glibc's do.
   Their loops are the program's loops: the unwinding bounds them and a
   TRUE says so. Names are reserved (__cegpv_); only functions a run can
   reach are lowered. Built-in types only: no header is included. */

void *__cegpv_memcpy(void *d, const void *s, __SIZE_TYPE__ n)
{
  unsigned char *dp = d;
  const unsigned char *sp = s;
  for (__SIZE_TYPE__ i = 0; i < n; i++)
    dp[i] = sp[i];
  return d;
}

/* backwards when d lies inside [s, s+n): found with equality tests only,
   since ordering pointers into different objects is rejected by the model */
void *__cegpv_memmove(void *d, const void *s, __SIZE_TYPE__ n)
{
  unsigned char *dp = d;
  const unsigned char *sp = s;
  int back = 0;
  for (__SIZE_TYPE__ i = 0; i < n; i++)
    if (sp + i == dp)
      back = 1;
  if (back)
    for (__SIZE_TYPE__ i = n; i > 0; i--)
      dp[i - 1] = sp[i - 1];
  else
    for (__SIZE_TYPE__ i = 0; i < n; i++)
      dp[i] = sp[i];
  return d;
}

void *__cegpv_memset(void *d, int c, __SIZE_TYPE__ n)
{
  unsigned char *dp = d;
  for (__SIZE_TYPE__ i = 0; i < n; i++)
    dp[i] = (unsigned char)c;
  return d;
}

int __cegpv_memcmp(const void *a, const void *b, __SIZE_TYPE__ n)
{
  const unsigned char *ap = a, *bp = b;
  for (__SIZE_TYPE__ i = 0; i < n; i++)
    if (ap[i] != bp[i])
      return ap[i] - bp[i];
  return 0;
}

__SIZE_TYPE__ __cegpv_strlen(const char *s)
{
  __SIZE_TYPE__ n = 0;
  while (s[n])
    n++;
  return n;
}

char *__cegpv_strcpy(char *d, const char *s)
{
  __SIZE_TYPE__ i = 0;
  while ((d[i] = s[i]) != 0)
    i++;
  return d;
}

char *__cegpv_strncpy(char *d, const char *s, __SIZE_TYPE__ n)
{
  __SIZE_TYPE__ i = 0;
  for (; i < n && s[i] != 0; i++)
    d[i] = s[i];
  for (; i < n; i++)
    d[i] = 0;
  return d;
}

int __cegpv_strcmp(const char *a, const char *b)
{
  const unsigned char *ap = (const unsigned char *)a, *bp = (const unsigned char *)b;
  __SIZE_TYPE__ i = 0;
  while (ap[i] != 0 && ap[i] == bp[i])
    i++;
  return ap[i] - bp[i];
}

int __cegpv_strncmp(const char *a, const char *b, __SIZE_TYPE__ n)
{
  const unsigned char *ap = (const unsigned char *)a, *bp = (const unsigned char *)b;
  for (__SIZE_TYPE__ i = 0; i < n; i++) {
    if (ap[i] != bp[i] || ap[i] == 0)
      return ap[i] - bp[i];
  }
  return 0;
}
