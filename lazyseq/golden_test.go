package lazyseq

import (
	"bytes"
	"flag"
	"fmt"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/internal/lemmatest"
	"cegpv.dev/cegpv/program"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/lazyseq/*.txtar")

// TestGolden sequentialises the input.c section of every archive in
// testdata/lazyseq with the -- options -- section (rounds=R threads=N [unwind=U], unwind 3 by default) and
// compares program.Show (-- show --) and program.Print (-- print.c --) of
// the result with the archive. The output must pass program.Check, compile
// with gcc -fsyntax-only and lower again (lemmatest.CheckOutput), and the
// input must be left unchanged.
func TestGolden(t *testing.T) {
	lemmatest.Goldens(t, "lazyseq", func(t *testing.T, file string) {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := lemmatest.Section(a, "input.c")
		optText, _ := lemmatest.Section(a, "options")
		opts := Options{Unwind: 3}
		if n, err := fmt.Sscanf(optText, "rounds=%d threads=%d unwind=%d", &opts.Rounds, &opts.Threads, &opts.Unwind); n < 2 {
			t.Fatalf("options %q: %v", optText, err)
		}
		p := lemmatest.Lower(t, "input.c", []byte(src))
		var before, after bytes.Buffer
		program.Show(&before, p)
		q, m, err := Sequentialize(p, opts)
		if err != nil {
			t.Fatalf("Sequentialize: %v", err)
		}
		program.Show(&after, p)
		if before.String() != after.String() {
			t.Errorf("Sequentialize changed its input")
		}
		if len(program.Properties(q)) < len(program.Properties(p)) {
			t.Errorf("properties %v, want those of the input %v", program.Properties(q), program.Properties(p))
		}
		show, print := lemmatest.CheckOutput(t, q)
		got := map[string]string{"instances": fmt.Sprintln(m.Instances()), "show": show, "print.c": print}
		lemmatest.CompareGolden(t, file, a, got, []string{"instances", "show", "print.c"}, *update)
	})
}
