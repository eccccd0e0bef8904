package loop

import (
	"os"
	"path/filepath"
	"testing"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/program"
)

// The dumps put each label's file:line and source text beside it.
func TestAnnotate(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.c")
	src := "int x;\nint main(void) {\n  x = 1;\n  x = x + 2;\n  return 0;\n}\n"
	os.WriteFile(file, []byte(src), 0o644)
	p, err := frontend.Lower(file, []byte(src), frontend.Options{Model: program.LP64})
	if err != nil {
		t.Fatal(err)
	}
	s := Sources(p)
	if got, want := s["main.0"], file+":3: x = 1;"; got != want {
		t.Errorf("main.0: %q, want %q", got, want)
	}
	got := annotate("# header main.0\nmain:main.0\nmain:main.0>main:main.1 nothing.99\n", s)
	want := "# header main.0\nmain:main.0  # main.0 " + file + ":3: x = 1;\n" +
		"main:main.0>main:main.1 nothing.99  # main.0 " + file + ":3: x = 1; | main.1 " + file + ":4: x = x + 2;\n"
	if got != want {
		t.Errorf("annotate:\n%s\nwant:\n%s", got, want)
	}
	os.Remove(file)
	if got := Sources(p)["main.1"]; got != file+":4" {
		t.Errorf("without the source file: %q", got)
	}
}
