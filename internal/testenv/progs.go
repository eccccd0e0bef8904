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
	Path   string
	Name   string // file name
	Src    []byte
	Expect string // "safe" or "unsafe"
	Unwind int    // from "// bounds: unwind=N", default 3
	Hard   bool   // "// interp: hard": random simulation is not expected to find the bug
}

// Progs reads every testdata/progs/*.c under the module root dir.
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
			case strings.HasPrefix(line, "interp:") && strings.Contains(line, "hard"):
				pr.Hard = true
			case strings.HasPrefix(line, "bounds:"):
				for _, kv := range strings.Fields(strings.TrimPrefix(line, "bounds:")) {
					if v, ok := strings.CutPrefix(kv, "unwind="); ok {
						if n, err := strconv.Atoi(v); err == nil {
							pr.Unwind = n
						}
					}
				}
			}
		}
		if pr.Expect != "safe" && pr.Expect != "unsafe" {
			return nil, fmt.Errorf("%s: no `// expect: safe|unsafe` header line", f)
		}
		out = append(out, pr)
	}
	return out, nil
}
