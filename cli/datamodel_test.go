package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cegpv.dev/cegpv/program"
	"cegpv.dev/cegpv/report"
)

// longSrc holds in LP64 and fails in ILP32 (gcc -m64: exit 0, gcc -m32:
// the assertion fails).
const longSrc = "#include <assert.h>\nint main(void) { assert(sizeof(long) == 8 && sizeof(void *) == 8); return 0; }\n"

// The data model is the host's unless a flag or a task definition names
// one, and the report, the JSON and the witness name it; validate takes a
// witness's.
func TestDataModel(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	dir := t.TempDir()
	c := filepath.Join(dir, "long.c")
	if err := os.WriteFile(c, []byte(longSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	task := func(name, model string) string {
		f := filepath.Join(dir, name)
		y := "format_version: '2.0'\ninput_files: 'long.c'\noptions:\n  language: C\n  data_model: " + model + "\n"
		if err := os.WriteFile(f, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	host := program.HostModel()
	verdict := map[program.DataModel]string{program.LP64: "TRUE", program.ILP32: "FALSE"}
	for _, tc := range []struct {
		args  []string
		model program.DataModel
	}{
		{nil, host},
		{[]string{"--32"}, program.ILP32},
		{[]string{"--64"}, program.LP64},
		{[]string{"--data-model", "ILP32"}, program.ILP32},
		{[]string{task("ilp32.yml", "ILP32")}, program.ILP32},
		{[]string{task("lp64.yml", "LP64")}, program.LP64},
		{[]string{"--64", task("ilp32b.yml", "ILP32")}, program.LP64}, // a flag wins over the task
	} {
		args := append([]string{"verify", "--unwind", "2", "--witness", filepath.Join(dir, "w.graphml")}, tc.args...)
		if len(tc.args) == 0 || !strings.HasSuffix(tc.args[len(tc.args)-1], ".yml") {
			args = append(args, c)
		}
		var out, errb bytes.Buffer
		run(context.Background(), args, &out, &errb)
		first, _, _ := strings.Cut(out.String(), "\n")
		if !strings.Contains(first, ", "+string(tc.model)+", ") || !strings.Contains(out.String(), "\n"+verdict[tc.model]) {
			t.Errorf("%v: want %s and %s\n%s%s", tc.args, tc.model, verdict[tc.model], out.String(), errb.String())
		}
		w, err := os.ReadFile(filepath.Join(dir, "w.graphml"))
		arch := map[program.DataModel]string{program.ILP32: "32bit", program.LP64: "64bit"}[tc.model]
		if err != nil || !bytes.Contains(w, []byte(`<data key="architecture">`+arch+`</data>`)) {
			t.Errorf("%v: witness without architecture %s: %v", tc.args, arch, err)
		}
	}
	// validate takes the witness's data model unless a flag names one: the
	// ILP32 violation holds only there
	for _, ext := range []string{".graphml", ".yml"} {
		w := filepath.Join(dir, "v"+ext)
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"verify", "--32", "--unwind", "2", "--witness", w, c}, &out, &errb); code != exitUnsafe {
			t.Fatalf("verify --32: exit %d\n%s%s", code, out.String(), errb.String())
		}
		for _, tc := range []struct {
			flags []string
			code  int
		}{{nil, exitUnsafe}, {[]string{"--64"}, exitUnknown}} {
			out.Reset()
			args := append(append([]string{"validate", "--unwind", "2", "--witness", w}, tc.flags...), c)
			if code := run(context.Background(), args, &out, &errb); code != tc.code {
				t.Errorf("validate %s %v: exit %d, want %d\n%s%s", ext, tc.flags, code, tc.code, out.String(), errb.String())
			}
		}
	}
	var out, errb bytes.Buffer
	run(context.Background(), []string{"verify", "--json", "--32", "--unwind", "2", c}, &out, &errb)
	var o report.Outcome
	if err := json.Unmarshal(out.Bytes(), &o); err != nil || o.DataModel != "ILP32" {
		t.Errorf("json: data_model %q, %v\n%s", o.DataModel, err, out.String())
	}
}

// bench checks each task in its data model: a manifest's data_model
// column, ILP32 without one.
func TestBenchDataModel(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil {
		t.Skip("z3 not installed")
	}
	t.Setenv(benchSelfEnv, "1")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "long.c"), []byte(longSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		manifest string
		want     map[string]string // mode -> verdict
	}{
		{"file\tcategory\texpected_verdict\tdata_model\nlong.c\tc\ttrue\tLP64\n", map[string]string{"plain": "TRUE"}},
		{"file\tcategory\texpected_verdict\tdata_model\nlong.c\tc\tfalse\tILP32\n", map[string]string{"plain": "FALSE"}},
		{"file\tcategory\texpected_verdict\nlong.c\tc\tfalse\n", map[string]string{"plain": "FALSE"}},
	} {
		man := filepath.Join(dir, "manifest.tsv")
		if err := os.WriteFile(man, []byte(tc.manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"bench", "--modes", "plain", "--timeout", "60s", "--unwind", "2", "--out", out, man}, &stdout, &stderr)
		res, err := report.Read(filepath.Join(out, "results.json"))
		if code != 0 || err != nil || len(res.Tasks) != 1 || res.Tasks[0].Verdict != tc.want["plain"] || res.Tasks[0].Status != "correct" {
			t.Errorf("%q: exit %d, %v, %+v\n%s%s", tc.manifest, code, err, res, stdout.String(), stderr.String())
		}
	}
	if _, err := benchTasks([]string{filepath.Join(dir, "nosuch.tsv")}); err == nil {
		t.Errorf("a missing manifest was accepted")
	}
}
