package cegpv_test

import (
	"go/build"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deps lists, for every package of the module, the module packages it may
// import (test files aside), as go/build's deps_test does for the standard
// library: a new import between packages is a decision to make here, with
// the rule it keeps, never a side effect. The layers, lowest first:
//
//   - leaves: the model (program) and helpers that know nothing of it;
//   - analyses and translations of a program that need nothing but the
//     model: the front end, the static analyses, the dependency graph, the
//     machine that executes it, the witness formats, the backend contract;
//   - interp drives the machine (replay, simulation); the CEGPV stages
//     (slice, reconstruct, refine, observer, lazyseq) translate programs;
//   - backends import the model, the contract, the solver driver and the
//     interpreter's replay, and nothing from the CEGPV stages, the
//     explicit-state search or the library (issue 15);
//   - explicit, the search as a portfolio engine; the CEGPV loop (loop),
//     which never imports the root; the library (the module root) decides
//     verdicts from all of them;
//   - above the library: validate, report (the writers), and the CLI,
//     which alone imports the backends' constructors and the writers.
var deps = map[string][]string{
	"program":            nil,
	"internal/heap":      nil,
	"internal/budget":    nil,
	"internal/proc":      {"internal/budget"},
	"internal/manifest":  {"program"},
	"internal/progen":    nil,
	"internal/testenv":   {"internal/manifest", "program"},
	"internal/lemmatest": {"depgraph", "frontend", "program", "slice"},
	"internal/lowertest": {"frontend", "program"},

	"analysis":         {"program"},
	"backend":          {"program"},
	"depgraph":         {"program"},
	"frontend":         {"internal/heap", "program"},
	"internal/machine": {"program"},
	"overflow":         {"program"},
	"svcomp":           {"program"},
	"witness":          {"program"},

	"interp":      {"internal/machine", "overflow", "program"},
	"slice":       {"depgraph", "program"},
	"reconstruct": {"program"},
	"refine":      {"program", "reconstruct"},
	"observer":    {"analysis", "interp", "program"},
	"lazyseq":     {"backend", "program"},

	"backend/smt":      {"internal/proc", "program"},
	"backend/builtin":  {"analysis", "backend", "backend/smt", "internal/budget", "internal/heap", "interp", "program"},
	"backend/external": {"backend", "internal/proc", "interp", "program"},
	"backend/esbmc":    {"backend", "backend/external", "program"},
	"backend/cbmc":     {"backend", "backend/external", "program"},

	"explicit": {"analysis", "backend", "internal/budget", "internal/heap", "internal/machine", "interp", "program"},
	// the CEGPV loop never reaches the verdict's policy (the module root)
	"loop": {"backend", "depgraph", "explicit", "internal/budget", "interp", "observer", "program", "reconstruct", "refine", "slice"},
	"":     {"backend", "explicit", "internal/budget", "interp", "loop", "program"},

	"validate": {"", "backend", "interp", "program", "witness"},
	"report":   {"", "backend", "interp", "loop", "program", "witness"},
	// the command line as a library: the only package besides cmd/cegpv
	// (and the examples) that imports the backends' constructors and the
	// writers; nothing else imports it
	"cli": {"", "backend", "backend/builtin", "backend/cbmc", "backend/esbmc", "backend/external", "backend/smt", "depgraph", "frontend",
		"internal/manifest", "internal/proc", "lazyseq", "loop", "overflow", "program", "report", "slice", "svcomp", "validate", "witness"},
	"cmd/cegpv": {"cli"},
	// a program outside cegpv: its own heuristic and ladder, cegpv's CLI
	"examples/heuristic": {"cli", "depgraph"},
}

func TestDeps(t *testing.T) {
	const mod = "cegpv.dev/cegpv"
	// the two packages of the algorithm: the verdict (the module root)
	// uses the loop, the loop never the verdict
	if slices.Contains(deps["loop"], "") || !slices.Contains(deps[""], "loop") {
		t.Errorf("deps: the module root imports loop, never the reverse; loop %q, root %q", deps["loop"], deps[""])
	}
	short := func(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, mod), "/") }
	seen := map[string]bool{}
	var walk func(path string)
	walk = func(path string) {
		if seen[path] {
			return
		}
		seen[path] = true
		p, err := build.Import(path, ".", 0)
		if err != nil {
			t.Fatal(err)
		}
		allowed, ok := deps[short(path)]
		if !ok {
			t.Errorf("package %q is not in deps: add it with the module packages it may import", short(path))
		}
		for _, imp := range p.Imports {
			if imp != mod && !strings.HasPrefix(imp, mod+"/") {
				continue
			}
			if ok && !slices.Contains(allowed, short(imp)) {
				t.Errorf("%q imports %q, which deps does not allow", short(path), short(imp))
			}
			walk(imp)
		}
	}
	walk(mod + "/cmd/cegpv")
	for _, pkg := range slices.Sorted(maps.Keys(deps)) {
		walk(strings.TrimSuffix(mod+"/"+pkg, "/"))
	}
}

// TestCapabilitiesNotAsserted: what a backend can do is what it declares
// (backend.Capabilities, issue 27); no package outside backend finds it
// by asserting a backend's type to backend.Incremental (backend.OpenOf
// does, after the declaration).
func TestCapabilitiesNotAsserted(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == "backend" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), ".(backend.Incremental)") {
			t.Errorf("%s asserts a type to backend.Incremental: read Capabilities (backend.OpenOf)", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
