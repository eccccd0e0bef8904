package cegpv_test

import (
	"context"
	"testing"
	"time"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/loop"
)

// The command-line model (frontend/mainparams.go) at its limits: what it
// does not represent must come out as UNKNOWN, never as a verdict.
func TestCommandLineModel(t *testing.T) {
	needZ3(t)
	for _, tc := range []struct {
		name, src string
		want      backend.Verdict
	}{
		// argv unused: nothing is allocated, a safe program is TRUE (the
		// old model's symbolic allocation made it UNKNOWN in the builtin
		// backend).
		{"unused", `int main(int argc, char **argv) { int x = argc; __VERIFIER_assert(x >= 1); return 0; }`, backend.Safe},
		// a character beyond the modelled length: real command lines reach
		// the error (argv[1] = "abcdefz"); the model cannot say
		{"beyond", `int main(int argc, char **argv) { if (argc >= 2 && argv[1][6] == 'z') reach_error(); return 0; }`, backend.Unknown},
		// a read past the NUL of the empty string is out of bounds
		{"pastnul", `int main(int argc, char **argv) { if (argc >= 2 && argv[1][0] == 0 && argv[1][1] == 'z') reach_error(); return 0; }`, backend.Unknown},
		// the same string converted twice gives the same number: the
		// conversions are opaque, so the model's independent values are not
		// a confirmed FALSE
		{"sscanf-twice", `#include <stdio.h>
int main(int argc, char **argv) { int a = 0, b = 0; if (argc >= 2) { sscanf(argv[1], "%d", &a); sscanf(argv[1], "%d", &b); if (a != b) reach_error(); } return 0; }`, backend.Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "extern void reach_error(void); extern void __VERIFIER_assert(int);\n" + tc.src
			p := lower(t, tc.name+".c", []byte(src))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := loop.Verify(ctx, p, loop.Options{Sanity: true, Backend: builtin.New(builtin.Options{}), Bounds: backend.Bounds{Unwind: 3}})
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if res.Verdict != tc.want {
				t.Fatalf("verdict %v (%s), want %v", res.Verdict, res.Reason, tc.want)
			}
			t.Logf("%v %s", res.Verdict, res.Reason)
		})
	}
}
