package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

var update = flag.Bool("update", false, "rewrite the golden files (and docs/cex-page.png when chromium is installed)")

// raceCex lowers testdata/race.c and finds a violating run by seeded
// random simulation (deterministic: the first seed that violates), then
// replays it, as verify does before it prints a FALSE.
func raceCex(t *testing.T) *Cex {
	t.Helper()
	file := "testdata/race.c"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.Lower(file, src, frontend.Options{Model: program.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed < 500; seed++ {
		out, err := interp.Simulate(p, interp.SimOptions{Seed: seed, ContextSwitchProb: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != interp.Violated {
			continue
		}
		rep, err := interp.Replay(p, out.Run)
		if err != nil || rep.Status != interp.Violated {
			t.Fatalf("seed %d: the violation does not replay: %v", seed, err)
		}
		steps, initial, err := Steps(p, rep.Run)
		if err != nil {
			t.Fatal(err)
		}
		return &Cex{File: file, Verdict: "FALSE", Property: rep.Prop, Bounds: "unwind 5", Mode: "cegpv", Backend: "builtin", DataModel: "ILP32",
			Program: p, Steps: steps, Initial: initial, Notes: []string{"found within unwind 1"},
			Loop: &LoopSummary{Levels: 2, Iterations: 3, Spurious: 1, Checks: 5, Kept: []string{"counter", "worker::tmp"}}}
	}
	t.Fatal("no violating run in 500 seeds")
	return nil
}

// wellFormed parses page as XML (the pages are XHTML) and returns the
// text of every element with the given class attribute.
func wellFormed(t *testing.T, page []byte, class string) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	var out []string
	depth, in := 0, -1
	var cur strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("page is not well-formed XHTML: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			depth++
			for _, a := range x.Attr {
				if a.Name.Local == "class" && in < 0 && strings.Contains(" "+a.Value+" ", " "+class+" ") {
					in = depth
					cur.Reset()
				}
			}
		case xml.EndElement:
			if depth == in {
				out = append(out, cur.String())
				in = -1
			}
			depth--
		case xml.CharData:
			if in >= 0 {
				cur.Write(x)
			}
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced elements (depth %d at the end)", depth)
	}
	return out
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test ./report -update rewrites it); got:\n%s", path, got)
	}
}

// TestCexPage checks the counterexample page of a lost update: one
// column per thread, the full source text of every row, the stores, the
// thread creations and joins marked, the violated property and the CEGPV
// summary; the page is well-formed XHTML and deterministic (golden).
func TestCexPage(t *testing.T) {
	c := raceCex(t)
	var buf bytes.Buffer
	if err := WriteCex(&buf, c); err != nil {
		t.Fatal(err)
	}
	page := buf.Bytes()
	threads := wellFormed(t, page, "thread")
	if strings.Join(threads, " ") != "0:main 1:worker 2:worker" {
		t.Errorf("thread columns %q, want 0:main 1:worker 2:worker", threads)
	}
	code := strings.Join(wellFormed(t, page, "act"), "\n")
	for _, want := range []string{
		"counter = tmp + 1; /* write it back: another thread may have written in between */", // full text, not clipped
		"counter = 1",
		"creates 1:worker", "creates 2:worker", "joins 1:worker", "joins 2:worker",
		"assert(counter == 2);",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("the thread cells lack %q:\n%s", want, code)
		}
	}
	if s := wellFormed(t, page, "start"); len(s) != 2 {
		t.Errorf("thread starts marked %d times, want 2: %q", len(s), s)
	}
	if s := wellFormed(t, page, "end"); len(s) != 2 {
		t.Errorf("joins marked %d times in the joined threads' columns, want 2: %q", len(s), s)
	}
	if p := wellFormed(t, page, "prop"); len(p) != 1 || !strings.Contains(p[0], "main.assertion.1 violated") {
		t.Errorf("property box %q", p)
	}
	if strings.Contains(string(page), "tmp = ") && !strings.Contains(code, "int tmp = counter;") {
		t.Errorf("the declaration row lacks its source text")
	}
	if !bytes.Contains(page, []byte("<th>kept variables (last level)</th><td>2: <code>counter, worker::tmp</code>")) {
		t.Errorf("CEGPV summary missing or wrong")
	}
	golden(t, "cex.golden.html", page)
	// a step that overflows a signed operation says so in its cell
	c.Steps[len(c.Steps)-1].Overflow = "arithmetic overflow on signed + in x + 1"
	buf.Reset()
	if err := WriteCex(&buf, c); err != nil {
		t.Fatal(err)
	}
	if ub := wellFormed(t, buf.Bytes(), "ub"); len(ub) != 1 || ub[0] != "undefined behaviour: arithmetic overflow on signed + in x + 1" {
		t.Errorf("overflow notes %q", ub)
	}
}

// TestCexPageChromium renders the page in headless chromium (Debian's
// package, `make chromium`) and checks the DOM the browser built: every
// thread column and the violated property. With -update it also writes
// the screenshot docs/cex-page.png.
func TestCexPageChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (make chromium)")
	}
	c := raceCex(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "cex.html")
	var buf bytes.Buffer
	if err := WriteCex(&buf, c); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, dir, "file://"+f, "--dump-dom"))
	for _, want := range []string{`id="thread-0">0:main</th>`, `id="thread-1">1:worker</th>`, `id="thread-2">2:worker</th>`, "Property main.assertion.1 violated", "assert(counter == 2);"} {
		if !strings.Contains(dom, want) {
			t.Errorf("chromium's DOM lacks %q:\n%s", want, dom)
		}
	}
	if *update {
		shot := filepath.Join(dir, "shot.png")
		runChromium(t, bin, dir, "file://"+f, "--screenshot="+shot, "--window-size=1100,900", "--hide-scrollbars")
		b, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "docs", "cex-page.png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runChromium runs headless chromium on url with args (its profile in
// dir) and returns its standard output.
func runChromium(t *testing.T, bin, dir, url string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + filepath.Join(dir, "profile")}, args...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.Bytes()
}
