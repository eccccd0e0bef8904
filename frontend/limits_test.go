package frontend

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/program"
)

// Inputs that used to crash the process or run without end (issue 14)
// are rejected with an error that names the limit, at once.
func TestFrontEndLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	bomb := "#define A0 x x\n"
	for i := 1; i <= 25; i++ {
		bomb += "#define A" + strconv.Itoa(i) + " A" + strconv.Itoa(i-1) + " A" + strconv.Itoa(i-1) + "\n"
	}
	bomb += "int main(void) { A25; return 0; }\n"
	guarded := write("guard.h", "#ifndef GUARD_H\n#define GUARD_H\n#include \"guard.h\"\nint g;\n#endif\n")
	_ = guarded
	for _, tc := range []struct {
		name, src string
		want      string // in the error; "" = lowers
	}{
		{"self.c", "#include \"self.c\"\nint main(void) { return 0; }\n", "self.c:1: unsupported input: #include \"self.c\": an include cycle"},
		{"cycle_a.c", "#include \"cycle_b.h\"\nint main(void) { return 0; }\n", "cycle_b.h:1: unsupported input: #include \"cycle_a.c\": an include cycle"},
		{"guarded.c", "#include \"guard.h\"\nint main(void) { return g; }\n", ""},
		{"deep.c", "int main(void) { return " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "; }\n", "deep.c:1: unsupported input: brackets nested more than 256 deep"},
		{"macro_deep.c", "#define P(x) ((((((((((x))))))))))\nint main(void) { return P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(P(1)))))))))))))))))))))))))))); }\n", "macro_deep.c: unsupported input: brackets nested more than 256 deep"},
		{"bomb.c", bomb, "macro expansion limit exceeded"},
		{"undefined.c", "int main(void) { return nosuch; }\n", "undefined.c:1:25: unsupported input: C parse error: undefined: nosuch"},
		// a syntax error names line and column, as CBMC
		{"syntax.c", "int main(void) {\n  int x = 1\n  return x;\n}\n", "syntax.c:3:3: unsupported input: C parse error: unexpected 'return', expected ';'"},
		// C++ is named as such, not as a missing header
		{"thread.c", "#include <thread>\nint main() { return 0; }\n", "thread.c:1:10: unsupported input: C++ input: <thread> is a C++ header"},
	} {
		if tc.name == "cycle_a.c" {
			write("cycle_b.h", "#include \"cycle_a.c\"\n")
		}
		f := write(tc.name, tc.src)
		start := time.Now()
		_, err := LowerContext(context.Background(), f, []byte(tc.src), Options{})
		if time.Since(start) > 20*time.Second {
			t.Errorf("%s: took %v", tc.name, time.Since(start))
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		case tc.want != "" && program.KindOf(err) != program.Unsupported:
			t.Errorf("%s: error kind %v, want unsupported input", tc.name, program.KindOf(err))
		}
		if err != nil && strings.Contains(err.Error(), ".go:") {
			t.Errorf("%s: the message shows a Go source position: %v", tc.name, err)
		}
	}
}

// LowerContext returns when its context ends, whatever the parser does.
func TestLowerContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := LowerContext(ctx, "x.c", []byte("int main(void) { return 0; }\n"), Options{})
	// the parse may win the race on so small a file; either answer is fine,
	// but an error must be Interrupted
	if err != nil && program.KindOf(err) != program.Interrupted {
		t.Errorf("error %v, want interrupted", err)
	}
}
