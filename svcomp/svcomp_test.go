package svcomp

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/program"
)

func TestParsePropertyFiles(t *testing.T) {
	for file, want := range map[string]struct{ name, fn string }{
		"unreach-call.prp":      {"unreach-call", "reach_error"},
		"unreach-call-2015.prp": {"unreach-call", "__VERIFIER_error"},
		"valid-memsafety.prp":   {"valid-memsafety", ""},
		"no-overflow.prp":       {"no-overflow", ""},
		"termination.prp":       {"termination", ""},
		"no-data-race.prp":      {"no-data-race", ""},
	} {
		p, err := ReadPropertyFile(filepath.Join("../testdata/svcomp", file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if p.Name != want.name || p.Function != want.fn {
			t.Errorf("%s: got %s/%q, want %s/%q", file, p.Name, p.Function, want.name, want.fn)
		}
		if p.Supported() != (want.name == "unreach-call") {
			t.Errorf("%s: Supported()=%v", file, p.Supported())
		}
	}
}

func TestParsePropertyOddForms(t *testing.T) {
	for text, name := range map[string]string{
		"CHECK(init(main()),LTL(G ! call(reach_error())))":                                       "unreach-call",
		"CHECK( init(main()), LTL(G  !  call(__VERIFIER_error())) )\n\n":                         "unreach-call",
		"CHECK( init(main()), LTL(G ! call(abort())) )":                                          "unknown",
		"CHECK( init(main()), LTL(G valid-memcleanup) )":                                         "valid-memcleanup",
		"CHECK( init(main()), LTL(G ! call(reach_error())) )\nCHECK( init(main()), LTL(F end) )": "unknown",
		"CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(F end) )":            "unknown",
	} {
		p, err := ParseProperty(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if p.Name != name {
			t.Errorf("%q: got %s, want %s", text, p.Name, name)
		}
	}
	for _, text := range []string{"", "hello", "CHECK( init(foo()), LTL(G ! call(reach_error())) )"} {
		_, err := ParseProperty(text)
		if program.KindOf(err) != program.Unsupported {
			t.Errorf("%q: got %v, want an Unsupported error", text, err)
		}
	}
}

func TestReadTask(t *testing.T) {
	safe, err := ReadTask("../testdata/svcomp/spin_ticket_safe.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(safe.InputFiles) != 1 || safe.InputFiles[0] != filepath.Join("../testdata/svcomp", "../progs/spin_ticket_safe.c") {
		t.Errorf("input files %q", safe.InputFiles)
	}
	if _, err := os.Stat(safe.InputFiles[0]); err != nil {
		t.Error(err)
	}
	if len(safe.Properties) != 2 || safe.Properties[0].Expected != "true" || safe.Properties[1].Expected != "" {
		t.Errorf("properties %+v", safe.Properties)
	}
	if p := safe.PropertyFor("unreach-call.prp"); p == nil || p.Expected != "true" {
		t.Errorf("PropertyFor(unreach-call.prp) = %+v", p)
	}
	if safe.DataModel != program.ILP32 || safe.Language != "C" {
		t.Errorf("options %s %s", safe.Language, safe.DataModel)
	}
	unsafe, err := ReadTask("../testdata/svcomp/spin_ticket_unsafe.yml")
	if err != nil {
		t.Fatal(err)
	}
	if unsafe.DataModel != program.LP64 || unsafe.Properties[0].Expected != "false" {
		t.Errorf("unsafe task %+v", unsafe)
	}
}

func TestReadTaskErrors(t *testing.T) {
	for name, text := range map[string]string{
		"version":  "format_version: '1.0'\ninput_files: a.c\n",
		"missing":  "format_version: '2.0'\ninput_files: nosuch.c\n",
		"noinput":  "format_version: '2.0'\n",
		"language": "format_version: '2.0'\ninput_files: '*.prp'\noptions:\n  language: Java\n",
		"model":    "format_version: '2.0'\ninput_files: '*.prp'\noptions:\n  data_model: ILP64\n",
		"noprop":   "format_version: '2.0'\ninput_files: '*.prp'\nproperties:\n  - expected_verdict: true\n",
		"yaml":     "format_version: [\n",
	} {
		_, err := ParseTask([]byte(text), "../testdata/svcomp")
		if err == nil || program.KindOf(err) != program.Unsupported {
			t.Errorf("%s: got %v, want an Unsupported error", name, err)
		}
	}
}

// TestGenerateSharedTasks writes task definitions for a few SV-COMP 2015 tasks of the
// shared set (which comes with a manifest, not .yml files) and reads them back.
func TestGenerateSharedTasks(t *testing.T) {
	bench := sharedBench(t)
	f, err := os.Open(filepath.Join(bench, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	prp := filepath.Join(dir, "unreach-call.prp")
	if err := os.WriteFile(prp, []byte("CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	n := 0
	for sc.Scan() && n < 6 {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 {
			continue
		}
		input := filepath.Join(bench, cols[0])
		yml := filepath.Join(dir, strings.TrimSuffix(filepath.Base(cols[0]), ".c")+".yml")
		b, err := FormatTask(dir, input, prp, cols[2], program.ILP32)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(yml, b, 0o644); err != nil {
			t.Fatal(err)
		}
		task, err := ReadTask(yml)
		if err != nil {
			t.Fatalf("%s:\n%s\n%v", yml, b, err)
		}
		if len(task.InputFiles) != 1 || filepath.Clean(task.InputFiles[0]) != filepath.Clean(input) {
			t.Errorf("%s: input %q, want %q", yml, task.InputFiles, input)
		}
		if p := task.PropertyFor("unreach-call.prp"); p == nil || p.Expected != cols[2] {
			t.Errorf("%s: property %+v, want expected %s", yml, task.Properties, cols[2])
		}
		n++
	}
	if n == 0 {
		t.Fatal("no task in the manifest")
	}
}

func sharedBench(t *testing.T) string {
	m := testenv.FindSVCOMP15()
	if m == "" {
		t.Skip("shared/bench/sv-comp15/manifest.tsv not found above the package: skipping")
	}
	return filepath.Dir(m)
}

func FuzzParseProperty(f *testing.F) {
	f.Add("CHECK( init(main()), LTL(G ! call(reach_error())) )\n")
	f.Add("CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseProperty(text)
		if err == nil && p.Supported() && p.Function == "" {
			t.Errorf("%q: unreach-call without a function", text)
		}
	})
}

func FuzzParseTask(f *testing.F) {
	f.Add([]byte("format_version: '2.0'\ninput_files: '*.prp'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: false\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		task, err := ParseTask(text, "../testdata/svcomp")
		if err == nil && len(task.InputFiles) == 0 {
			t.Errorf("%q: a task without input files", text)
		}
	})
}
