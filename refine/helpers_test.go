package refine

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"cegpv.dev/cegpv/internal/lemmatest"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/refine/*.txtar")

// Shared helpers (internal/lemmatest), under the names the tests use.
var (
	haveGCC      = lemmatest.HaveGCC
	lower        = lemmatest.Lower
	progFiles    = lemmatest.ProgFiles
	abstractions = lemmatest.Abstractions
	checkOutput  = lemmatest.CheckOutput
	isPrefix     = lemmatest.IsPrefix
	labelsString = lemmatest.LabelsString
)

func TestMain(m *testing.M) {
	flag.Parse()
	if !haveGCC {
		fmt.Fprintln(os.Stderr, "gcc not found: skipping the gcc -fsyntax-only checks of printed C")
	}
	os.Exit(m.Run())
}
