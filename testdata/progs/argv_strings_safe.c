// expect: safe
// bounds: unwind=3
// Properties of every command line: argv[argc] is NULL, the arguments are
// distinct strings, a non-empty string has a non-NUL first character and
// the NUL of a short string ends it. No read goes past a string's NUL.
extern void reach_error(void);

int main(int argc, char *argv[]) {
  if (argv[argc] != 0)
    reach_error();
  if (argc >= 2) {
    char *a = argv[0], *b = argv[1];
    if (a == b)
      reach_error();
    a[0] = 'x';              /* the strings are writable and separate */
    if (b[0] == 'x' && a[0] != 'x')
      reach_error();
    if (b[0] != 0 && b[1] != 0 && b[2] == 0 && (b[0] == 0 || b[1] == 0))
      reach_error();
  }
  return 0;
}
