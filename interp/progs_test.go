package interp

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cegpv.dev/cegpv/frontend"
	P "cegpv.dev/cegpv/program"
)

// progHeader is the expectation stated in the first lines of a
// testdata/progs file (docs/conventions.md, "Tests").
type progHeader struct {
	expect  string // "safe" or "unsafe"
	unwind  int
	threads int
	hard    bool // "// interp: hard": random simulation is not expected to find the bug
}

func readHeader(src []byte) (progHeader, error) {
	h := progHeader{unwind: 3}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "//") {
			break
		}
		line = strings.TrimSpace(strings.TrimPrefix(line, "//"))
		switch {
		case strings.HasPrefix(line, "expect:"):
			h.expect = strings.TrimSpace(strings.TrimPrefix(line, "expect:"))
		case strings.HasPrefix(line, "bounds:"):
			for _, f := range strings.Fields(strings.TrimPrefix(line, "bounds:")) {
				k, v, ok := strings.Cut(f, "=")
				n, err := strconv.Atoi(v)
				if !ok || err != nil {
					return h, fmt.Errorf("bad bounds field %q", f)
				}
				switch k {
				case "unwind":
					h.unwind = n
				case "threads":
					h.threads = n
				default:
					return h, fmt.Errorf("unknown bound %q", k)
				}
			}
		case line == "interp: hard":
			h.hard = true
		}
	}
	if h.expect != "safe" && h.expect != "unsafe" {
		return h, fmt.Errorf("no `// expect: safe|unsafe` header line")
	}
	return h, nil
}

// progFiles returns the testdata/progs programs.
func progFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "progs", "*.c"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no programs in testdata/progs")
	}
	return files
}

// readProg returns the source of a testdata/progs program and its header.
func readProg(t *testing.T, file string) ([]byte, progHeader) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	h, err := readHeader(src)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return src, h
}

// TestProgs lowers every testdata/progs program and simulates it under many
// seeds: a safe program never fails an assertion (nor hits an execution
// error), an unsafe one fails under at least one seed unless it is marked
// `// interp: hard`, and every failure found replays with Replay.
func TestProgs(t *testing.T) {
	files := progFiles(t)
	seeds := 2000
	if testing.Short() {
		seeds = 200
	}
	probs := []float64{0.1, 0.3, 0.5, 0.9}
	for _, file := range files {
		file := file
		t.Run(strings.TrimSuffix(filepath.Base(file), ".c"), func(t *testing.T) {
			src, h := readProg(t, file)
			p, err := frontend.Lower(file, src, frontend.Options{})
			if err != nil {
				if P.KindOf(err) == P.Unsupported {
					t.Skipf("front end does not support this program yet: %v", err)
				}
				t.Fatalf("Lower: %v", err)
			}
			if err := P.Check(p); err != nil {
				t.Fatalf("Check: %v", err)
			}
			found, replayed := 0, 0
			statuses := map[Status]int{}
			for seed := 0; seed < seeds; seed++ {
				opts := SimOptions{
					Seed:              int64(seed),
					MaxSteps:          3000,
					ContextSwitchProb: probs[seed%len(probs)],
					Unwind:            h.unwind,
				}
				if seed%2 == 1 {
					opts.NondetRange = 4
				}
				out, err := Simulate(p, opts)
				if err != nil {
					t.Fatalf("seed %d: Simulate: %v", seed, err)
				}
				statuses[out.Status]++
				switch out.Status {
				case Errored:
					t.Fatalf("seed %d: execution error: %v\n%s", seed, out.Err, Format(p, out.Run))
				case Violated:
					found++
					if h.expect == "safe" {
						t.Fatalf("seed %d: assertion %s fails in a safe program:\n%s", seed, out.Prop, Format(p, out.Run))
					}
				}
				// every violation, and a sample of the other runs, replays
				if out.Status == Violated && replayed < 50 || seed < 20 {
					replayed++
					r, err := Replay(p, out.Run)
					if err != nil {
						t.Fatalf("seed %d: the simulated run does not replay: %v\n%s", seed, err, Format(p, out.Run))
					}
					if (r.Status == Violated) != (out.Status == Violated) || r.Prop != out.Prop || len(r.Diffs) > 0 {
						t.Fatalf("seed %d: replay gives %v %s (diffs %v), simulation %v %s", seed, r.Status, r.Prop, r.Diffs, out.Status, out.Prop)
					}
				}
			}
			t.Logf("%s: %d/%d seeds violate; statuses %v", h.expect, found, seeds, statuses)
			if h.expect == "unsafe" && found == 0 {
				if h.hard {
					t.Logf("marked `interp: hard`: random simulation is not expected to find this bug")
				} else {
					t.Errorf("no seed of %d finds the bug of an unsafe program", seeds)
				}
			}
		})
	}
}
