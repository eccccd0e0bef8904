package cli

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// verify --html writes the counterexample page beside the text output.
func TestVerifyHTML(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	page := filepath.Join(t.TempDir(), "cex.html")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"verify", "--probe", "0", "--html", page, "../testdata/progs/lazy_counter_unsafe.c"}, &out, &errb)
	if code != exitUnsafe {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitUnsafe, out.String(), errb.String())
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">0:main</th>", ">1:worker</th>", ">2:worker</th>", "Property main.assertion.1 violated", "<h2>CEGPV</h2>", "counter++;"} {
		if !strings.Contains(html.UnescapeString(string(b)), want) { // html/template writes "+" as &#43;
			t.Errorf("page lacks %q", want)
		}
	}
}
