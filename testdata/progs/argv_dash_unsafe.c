// expect: unsafe
// bounds: unwind=3
// interp: hard
// The command line is modelled (frontend/mainparams.go): argv[1] can be the
// one-character string "-", which reaches the error (random simulation
// rarely draws it: interp: hard). The run reads only
// modelled characters, so the counterexample is a real command line.
extern void reach_error(void);

int main(int argc, char *argv[]) {
  if (argc == 2 && argv[1][0] == '-' && argv[1][1] == 0)
    reach_error();
  return 0;
}
