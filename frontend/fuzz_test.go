package frontend

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"cegpv.dev/cegpv/program"
)

// FuzzLower: any C text either lowers to a program that passes the sanity
// checker and whose printed C lowers again to the same printed C, or is
// rejected with an error of a kind; it never panics (a recovered panic is
// an Internal error, which fails here too) and never hangs (the fuzzer's
// own time limit per input). Seeds: the
// hand-written programs and the golden inputs. `go test` runs the seeds;
// `make fuzz` runs the fuzzer.
func FuzzLower(f *testing.F) {
	for _, glob := range []string{"../testdata/progs/*.c"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("int main(void) { return " + "((((((((((1))))))))))" + "; }\n"))
	f.Add([]byte("union U { int a; int b; } u; int main(void) { u.a = 1; return u.b; }\n"))
	f.Add([]byte("_Atomic int x; int main(void) { x += 2; return x; }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		// Lower itself: LowerContext's heap budget is the process's, which
		// the fuzzer's own work shares
		p, err := Lower("fuzz.c", src, Options{})
		if err != nil {
			switch program.KindOf(err) {
			case program.Internal, program.Timeout, program.Memout, 0:
				t.Fatalf("lowering failed with %v", err)
			}
			return
		}
		if err := program.Check(p); err != nil {
			t.Fatalf("lowered program fails the sanity check: %v", err)
		}
		var out1 bytes.Buffer
		if _, err := program.Print(&out1, p); err != nil {
			return // printing may refuse what C cannot say; not a crash
		}
		q, err := Lower("fuzz.c", out1.Bytes(), Options{})
		if err != nil {
			t.Fatalf("printed C does not lower again: %v\n%s", err, out1.String())
		}
		var out2 bytes.Buffer
		if _, err := program.Print(&out2, q); err != nil {
			t.Fatalf("printing the re-lowered program: %v", err)
		}
		if !bytes.Equal(out1.Bytes(), out2.Bytes()) {
			t.Fatalf("printing is not idempotent:\n%s\n---\n%s", out1.String(), out2.String())
		}
	})
}
