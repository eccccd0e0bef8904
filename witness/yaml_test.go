package witness

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"cegpv.dev/cegpv/program"
)

type yViolation struct {
	EntryType string `yaml:"entry_type"`
	Metadata  struct {
		FormatVersion string `yaml:"format_version"`
		UUID          string `yaml:"uuid"`
		CreationTime  string `yaml:"creation_time"`
		Producer      struct{ Name, Version string }
		Task          struct {
			InputFiles      []string          `yaml:"input_files"`
			InputFileHashes map[string]string `yaml:"input_file_hashes"`
			Specification   string
			DataModel       string `yaml:"data_model"`
			Language        string
		}
	}
	Content []ySegment
}

// TestViolationYAML checks the YAML 2.0 witnesses' rules that matter: one
// violation_sequence entry, format 2.0 metadata with the program's SHA-256 hash and the
// LTL formula, one follow waypoint per segment, locations inside the program file, and
// the target waypoint last (and only there).
func TestViolationYAML(t *testing.T) {
	for _, name := range []string{"spin_ticket_unsafe.c", "join_missing_unsafe.c", "cil_addr_unsafe.c"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join("../testdata/progs", name)
			p, run := violatingRun(t, file)
			b, err := ViolationYAML(Info{ProgramFile: file, Specification: unreach, Producer: "cegpv test", Model: program.LP64}, p, run)
			if err != nil {
				t.Fatal(err)
			}
			checkYAMLMetadata(t, b, file, "violation_sequence", "LP64")
			var es []yViolation
			if err := yaml.Unmarshal(b, &es); err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			if len(es) != 1 {
				t.Fatalf("%d entries", len(es))
			}
			e := es[0]
			src, _ := os.ReadFile(file)
			sum := sha256.Sum256(src)
			m := e.Metadata
			if e.EntryType != "violation_sequence" || m.FormatVersion != "2.0" || len(m.UUID) != 36 ||
				m.Task.Specification != "G ! call(reach_error())" || m.Task.DataModel != "LP64" || m.Task.Language != "C" ||
				len(m.Task.InputFiles) != 1 || m.Task.InputFiles[0] != file || m.Task.InputFileHashes[file] != hex.EncodeToString(sum[:]) ||
				m.Producer.Name != "cegpv" {
				t.Errorf("entry %+v", e)
			}
			nlines := strings.Count(string(src), "\n")
			for i, s := range e.Content {
				if len(s.Segment) != 1 || s.Segment[0].Waypoint.Action != "follow" {
					t.Fatalf("segment %d: %+v", i, s)
				}
				w := s.Segment[0].Waypoint
				if w.Location.FileName != file || w.Location.Line < 1 || w.Location.Line > nlines {
					t.Errorf("segment %d: location %+v outside %s", i, w.Location, file)
				}
				if (w.Type == "target") != (i == len(e.Content)-1) {
					t.Errorf("segment %d of %d has type %s", i, len(e.Content), w.Type)
				}
				if w.Type == "assumption" && (w.Constraint == nil || !strings.Contains(w.Constraint.Value, "==")) {
					t.Errorf("segment %d: assumption %+v", i, w.Constraint)
				}
			}
		})
	}
}

// checkYAMLMetadata checks the keys a format 2.0 entry must have, in
// the witness's own terms (a map, not a Go struct that would ignore
// unknown or misspelt keys): entry_type, metadata with format_version
// "2.0", a version 4 UUID, an ISO 8601 creation time, the producer's name
// and version, and the task (one input file, its SHA-256 hash under the
// same name, the LTL formula, the data model, language C), and content a
// list. It returns the entry's content.
func checkYAMLMetadata(t *testing.T, b []byte, file, entryType, model string) []any {
	t.Helper()
	var es []map[string]any
	if err := yaml.Unmarshal(b, &es); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if len(es) != 1 {
		t.Fatalf("%d entries, want 1", len(es))
	}
	e := es[0]
	keys := func(what string, m map[string]any, want ...string) {
		t.Helper()
		var got []string
		for k := range m {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s has keys %v, want %v", what, got, want)
		}
	}
	keys("the entry", e, "entry_type", "metadata", "content")
	if e["entry_type"] != entryType {
		t.Errorf("entry_type %v, want %s", e["entry_type"], entryType)
	}
	m, _ := e["metadata"].(map[string]any)
	keys("metadata", m, "format_version", "uuid", "creation_time", "producer", "task")
	if m["format_version"] != "2.0" {
		t.Errorf("format_version %#v, want the string 2.0", m["format_version"])
	}
	if u, _ := m["uuid"].(string); !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(u) {
		t.Errorf("uuid %q", u)
	}
	if c, _ := m["creation_time"].(string); c == "" {
		t.Errorf("creation_time %#v", m["creation_time"])
	} else if _, err := time.Parse(time.RFC3339, c); err != nil {
		t.Errorf("creation_time: %v", err)
	}
	p, _ := m["producer"].(map[string]any)
	keys("producer", p, "name", "version")
	if p["name"] != "cegpv" || p["version"] != "test" {
		t.Errorf("producer %v", p)
	}
	task, _ := m["task"].(map[string]any)
	keys("task", task, "input_files", "input_file_hashes", "specification", "data_model", "language")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(src)
	if in, _ := task["input_files"].([]any); len(in) != 1 || in[0] != file {
		t.Errorf("input_files %v, want [%s]", task["input_files"], file)
	}
	if h, _ := task["input_file_hashes"].(map[string]any); len(h) != 1 || h[file] != hex.EncodeToString(sum[:]) {
		t.Errorf("input_file_hashes %v, want %s: %x", task["input_file_hashes"], file, sum)
	}
	if task["specification"] != "G ! call(reach_error())" || task["data_model"] != model || task["language"] != "C" {
		t.Errorf("task %v", task)
	}
	content, ok := e["content"].([]any)
	if !ok {
		t.Fatalf("content %#v is not a list", e["content"])
	}
	return content
}

// TestCorrectnessYAML: a format 2.0 correctness witness is one
// invariant_set entry with the task's metadata (hash, formula, data model)
// and a list of invariants, here empty; every invariant it would state
// names a location inside the file. Read does not take it for a violation
// witness.
func TestCorrectnessYAML(t *testing.T) {
	for _, model := range []program.DataModel{program.ILP32, program.LP64} {
		file := "../testdata/progs/spin_ticket_safe.c"
		b, err := CorrectnessYAML(Info{ProgramFile: file, Specification: unreach, Producer: "cegpv test", Model: model})
		if err != nil {
			t.Fatal(err)
		}
		content := checkYAMLMetadata(t, b, file, "invariant_set", string(model))
		src, _ := os.ReadFile(file)
		nlines := strings.Count(string(src), "\n")
		for i, c := range content {
			inv, _ := c.(map[string]any)["invariant"].(map[string]any)
			loc, _ := inv["location"].(map[string]any)
			if l, _ := loc["line"].(int); l < 1 || l > nlines || loc["file_name"] != file {
				t.Errorf("invariant %d: location %v outside %s", i, loc, file)
			}
			if inv["format"] != "c_expression" || (inv["type"] != "loop_invariant" && inv["type"] != "location_invariant") {
				t.Errorf("invariant %d: %v", i, inv)
			}
		}
		if !strings.Contains(string(b), "\n  content: []\n") {
			t.Errorf("no empty content list:\n%s", b)
		}
		if _, err := Read(b); err == nil || err.Error() != "YAML: no violation_sequence entry (format 2.0)" {
			t.Errorf("Read of a correctness witness: %v", err)
		}
	}
	if _, err := CorrectnessYAML(Info{ProgramFile: "no/such/file.c"}); err == nil {
		t.Error("a witness of a missing file")
	}
}
