package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Prog is a hand-written test program of testdata/progs with the
// expectations of its header lines (docs/conventions.md).
type Prog struct {
	Path    string
	Name    string // file name
	Src     []byte
	Expect  string // "safe" or "unsafe"
	Unwind  int    // from "// bounds: unwind=N", default 3
	Threads int    // from "// bounds: threads=N", 0 if absent
	Hard    bool   // "// interp: hard": random simulation is not expected to find the bug
	// Unwinding lists the verdicts with unwinding assertions, from
	// "// unwinding: N holds" and "// unwinding: N fails ID ID…" (any one
	// of the ids may be reported).
	Unwinding []Unwinding
}

// Unwinding is the expected verdict of a check with unwinding assertions
// at unwind Unwind: TRUE (a proof) when Fails is empty, otherwise FALSE
// for one of the unwinding properties in Fails.
type Unwinding struct {
	Unwind int
	Fails  []string
}

// Progs reads every testdata/progs/*.c under the module root dir; a header
// line it cannot read is an error, as is an empty directory.
func Progs(root string) ([]Prog, error) {
	files, err := filepath.Glob(filepath.Join(root, "testdata", "progs", "*.c"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Prog
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		pr := Prog{Path: f, Name: filepath.Base(f), Src: src, Unwind: 3}
		for _, line := range strings.Split(string(src), "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "//") {
				break
			}
			line = strings.TrimSpace(strings.TrimPrefix(line, "//"))
			switch {
			case strings.HasPrefix(line, "expect:"):
				pr.Expect = strings.TrimSpace(strings.TrimPrefix(line, "expect:"))
			case strings.HasPrefix(line, "unwinding:"):
				w := strings.Fields(strings.TrimPrefix(line, "unwinding:"))
				n, err := 0, error(nil)
				if len(w) >= 2 {
					n, err = strconv.Atoi(w[0])
				}
				switch {
				case len(w) < 2 || err != nil || n < 1,
					w[1] == "holds" && len(w) != 2,
					w[1] == "fails" && len(w) < 3,
					w[1] != "holds" && w[1] != "fails":
					return nil, fmt.Errorf("%s: bad unwinding line %q (want \"N holds\" or \"N fails ID…\")", f, line)
				}
				u := Unwinding{Unwind: n}
				if w[1] == "fails" {
					u.Fails = w[2:]
				}
				pr.Unwinding = append(pr.Unwinding, u)
			case line == "interp: hard":
				pr.Hard = true
			case strings.HasPrefix(line, "bounds:"):
				for _, kv := range strings.Fields(strings.TrimPrefix(line, "bounds:")) {
					k, v, ok := strings.Cut(kv, "=")
					n, err := strconv.Atoi(v)
					if !ok || err != nil {
						return nil, fmt.Errorf("%s: bad bounds field %q", f, kv)
					}
					switch k {
					case "unwind":
						pr.Unwind = n
					case "threads":
						pr.Threads = n
					default:
						return nil, fmt.Errorf("%s: unknown bound %q", f, k)
					}
				}
			}
		}
		if pr.Expect != "safe" && pr.Expect != "unsafe" {
			return nil, fmt.Errorf("%s: no `// expect: safe|unsafe` header line", f)
		}
		out = append(out, pr)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no programs in %s", filepath.Join(root, "testdata", "progs"))
	}
	return out, nil
}
