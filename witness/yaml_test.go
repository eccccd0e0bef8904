package witness

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"cegpv.dev/cegpv/program"
)

type yEntry struct {
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
			var es []yEntry
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

// TestCorrectnessYAML checks the YAML 2.0 correctness witness: one
// invariant_set entry with the metadata of a violation witness (format
// 2.0, the program's SHA-256, the LTL formula) and one location invariant,
// the trivial one, at a line of main inside the program file.
func TestCorrectnessYAML(t *testing.T) {
	for _, name := range []string{"spin_ticket_safe.c", "join_result_safe.c"} {
		file := filepath.Join("../testdata/progs", name)
		b, err := CorrectnessYAML(Info{ProgramFile: file, Specification: unreach, Producer: "cegpv test", Model: program.ILP32}, lower(t, file))
		if err != nil {
			t.Fatal(err)
		}
		var es []struct {
			EntryType string `yaml:"entry_type"`
			Metadata  yMetadata
			Content   []struct{ Invariant yInvariant }
		}
		if err := yaml.Unmarshal(b, &es); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if len(es) != 1 {
			t.Fatalf("%s: %d entries", name, len(es))
		}
		e, m := es[0], es[0].Metadata
		src, _ := os.ReadFile(file)
		sum := sha256.Sum256(src)
		if e.EntryType != "invariant_set" || m.FormatVersion != "2.0" || len(m.UUID) != 36 || m.Task.Specification != "G ! call(reach_error())" ||
			m.Task.DataModel != "ILP32" || m.Task.InputFileHashes[file] != hex.EncodeToString(sum[:]) || len(m.Task.InputFiles) != 1 {
			t.Errorf("%s: entry %+v", name, e)
		}
		if len(e.Content) != 1 {
			t.Fatalf("%s: %d invariants", name, len(e.Content))
		}
		inv := e.Content[0].Invariant
		if inv.Type != "location_invariant" || inv.Value != "1" || inv.Format != "c_expression" || inv.Location.FileName != file ||
			inv.Location.Function != "main" || inv.Location.Line < 1 || inv.Location.Line > strings.Count(string(src), "\n") || inv.Location.Column < 1 {
			t.Errorf("%s: invariant %+v", name, inv)
		}
	}
}
