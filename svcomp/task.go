package svcomp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"cegpv.dev/cegpv/program"
)

// Task is an SV-COMP task definition (format 2.0) with its paths resolved relative to
// the directory of the .yml file.
type Task struct {
	Path       string         // the .yml file
	InputFiles []string       // resolved input files, in the order written
	Properties []TaskProperty // the properties to check, with their expected verdicts
	Language   string         // options.language ("C" when unset)
	DataModel  program.DataModel
}

// TaskProperty is one entry of a task's properties list.
type TaskProperty struct {
	File string // resolved property file
	// Expected is "true", "false" or "" (no expected verdict given).
	Expected string
	// Subproperty names the violated subproperty of a false expectation (valid-memsafety).
	Subproperty string
}

type taskYAML struct {
	FormatVersion string      `yaml:"format_version"`
	InputFiles    interface{} `yaml:"input_files"`
	Properties    []struct {
		PropertyFile    string `yaml:"property_file"`
		ExpectedVerdict *bool  `yaml:"expected_verdict"`
		Subproperty     string `yaml:"subproperty"`
	} `yaml:"properties"`
	Options struct {
		Language  string `yaml:"language"`
		DataModel string `yaml:"data_model"`
	} `yaml:"options"`
}

// IsTaskFile reports whether path names a task definition (by its extension).
func IsTaskFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yml" || ext == ".yaml"
}

// ReadTask reads a task definition. Input file entries may be glob patterns (as the
// format allows); a pattern matching nothing, a missing file, a data model other than
// ILP32/LP64 or a language other than C is an Unsupported error naming the file.
func ReadTask(path string) (*Task, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, program.Errorf(program.Unsupported, "task definition: %v", err)
	}
	t, err := ParseTask(b, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t.Path = path
	return t, nil
}

// ParseTask parses the text of a task definition whose relative paths are relative to dir.
func ParseTask(text []byte, dir string) (*Task, error) {
	var y taskYAML
	if err := yaml.Unmarshal(text, &y); err != nil {
		return nil, program.Errorf(program.Unsupported, "task definition: %v", err)
	}
	if y.FormatVersion != "2.0" {
		return nil, program.Errorf(program.Unsupported, "task definition: format_version %q, only 2.0 is supported", y.FormatVersion)
	}
	t := &Task{Language: "C", DataModel: program.ILP32}
	var patterns []string
	switch v := y.InputFiles.(type) {
	case string:
		patterns = []string{v}
	case []interface{}:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, program.Errorf(program.Unsupported, "task definition: input_files entry %v is not a string", e)
			}
			patterns = append(patterns, s)
		}
	default:
		return nil, program.Errorf(program.Unsupported, "task definition: input_files missing or not a string or list")
	}
	for _, p := range patterns {
		full := resolve(dir, p)
		matches, err := filepath.Glob(full)
		if err != nil {
			return nil, program.Errorf(program.Unsupported, "task definition: input_files %q: %v", p, err)
		}
		if len(matches) == 0 {
			return nil, program.Errorf(program.Unsupported, "task definition: input file %q does not exist", p)
		}
		t.InputFiles = append(t.InputFiles, matches...)
	}
	for _, p := range y.Properties {
		if p.PropertyFile == "" {
			return nil, program.Errorf(program.Unsupported, "task definition: a property without property_file")
		}
		tp := TaskProperty{File: resolve(dir, p.PropertyFile), Subproperty: p.Subproperty}
		if p.ExpectedVerdict != nil {
			tp.Expected = fmt.Sprint(*p.ExpectedVerdict)
		}
		t.Properties = append(t.Properties, tp)
	}
	if y.Options.Language != "" {
		t.Language = y.Options.Language
	}
	if t.Language != "C" {
		return nil, program.Errorf(program.Unsupported, "task definition: language %s, only C is supported", t.Language)
	}
	switch y.Options.DataModel {
	case "", "ILP32":
	case "LP64":
		t.DataModel = program.LP64
	default:
		return nil, program.Errorf(program.Unsupported, "task definition: data_model %q, only ILP32 and LP64", y.Options.DataModel)
	}
	return t, nil
}

func resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// PropertyFor returns the task's property whose file has the given base name (e.g.
// "unreach-call.prp"), or nil.
func (t *Task) PropertyFor(base string) *TaskProperty {
	for i := range t.Properties {
		if filepath.Base(t.Properties[i].File) == base {
			return &t.Properties[i]
		}
	}
	return nil
}

// FormatTask writes a format 2.0 task definition for one input file and one property
// (paths written relative to dir, where the .yml will lie, when they can be);
// expected is "true", "false" or "" (no expected verdict).
func FormatTask(dir, input, propertyFile, expected string, model program.DataModel) ([]byte, error) {
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil {
			return r
		}
		return p
	}
	y := map[string]any{
		"format_version": "2.0",
		"input_files":    rel(input),
		"options":        map[string]string{"language": "C", "data_model": string(model)},
	}
	prop := map[string]any{"property_file": rel(propertyFile)}
	switch expected {
	case "true":
		prop["expected_verdict"] = true
	case "false":
		prop["expected_verdict"] = false
	case "":
	default:
		return nil, program.Errorf(program.Internal, "expected verdict %q is neither true nor false", expected)
	}
	y["properties"] = []any{prop}
	return yaml.Marshal(y)
}

// Checked returns the task's first property that cegpv checks (its
// property file reads and is Supported: unreach-call), or nil.
func (t *Task) Checked() *TaskProperty {
	for i := range t.Properties {
		if p, err := ReadPropertyFile(t.Properties[i].File); err == nil && p.Supported() {
			return &t.Properties[i]
		}
	}
	return nil
}
