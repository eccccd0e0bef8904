package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"cegpv.dev/cegpv/program"
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
	// Model is the data model the program is meant for, from "// data
	// model: ILP32" (its truth was decided by gcc in that model only); ""
	// (the host's) when the program holds in both, as most do.
	Model program.DataModel
}

// ModelOf returns the data model of a test program's header (Prog.Model),
// "" when it names none.
func ModelOf(src []byte) program.DataModel {
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "//") {
			break
		}
		if m, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "//")), "data model:"); ok {
			if f := strings.Fields(m); len(f) > 0 {
				return program.DataModel(f[0])
			}
		}
	}
	return ""
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
	return ProgsIn(filepath.Join(root, "testdata", "progs"))
}

// ProgsIn reads every *.c of dir as Progs does.
func ProgsIn(dir string) ([]Prog, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.c"))
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
		pr := Prog{Path: f, Name: filepath.Base(f), Src: src, Unwind: 3, Model: ModelOf(src)}
		if m := pr.Model; m != "" && m != program.ILP32 && m != program.LP64 {
			return nil, fmt.Errorf("%s: data model %q, want ILP32 or LP64", f, m)
		}
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
		return nil, fmt.Errorf("no programs in %s", dir)
	}
	return out, nil
}
