package svcomp

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Property is one specification read from a property file.
type Property struct {
	// Name is SV-COMP's property name: "unreach-call", "valid-memsafety", "no-overflow",
	// "termination", "no-data-race", "valid-memcleanup", "def-behavior", or "unknown".
	Name string
	// Function is the error function of unreach-call ("__VERIFIER_error" or "reach_error").
	Function string
	// Text is the property file's text, as written in witnesses' specification field.
	Text string
}

// Supported reports whether cegpv checks this property.
func (p *Property) Supported() bool { return p.Name == "unreach-call" }

var (
	checkRe   = regexp.MustCompile(`^CHECK\(\s*init\(\s*([A-Za-z_][A-Za-z0-9_]*)\(\)\s*\)\s*,\s*LTL\((.*)\)\s*\)$`)
	unreachRe = regexp.MustCompile(`^G\s*!\s*call\(\s*([A-Za-z_][A-Za-z0-9_]*)\(\)\s*\)$`)
)

// memsafety formulas; a valid-memsafety file has several of them.
var memsafety = map[string]bool{"G valid-free": true, "G valid-deref": true, "G valid-memtrack": true}

// ParseProperty parses the text of a property file. A syntactically valid file naming a
// property cegpv does not check yields a Property with Supported() false; text that is no
// property file at all is an error of kind Unsupported (an input cegpv does not understand).
func ParseProperty(text string) (*Property, error) {
	var formulas []string
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		m := checkRe.FindStringSubmatch(line)
		if m == nil {
			return nil, program.Errorf(program.Unsupported, "property file line %d: not a CHECK( init(main()), LTL(...) ) line: %q", i+1, line)
		}
		if m[1] != "main" {
			return nil, program.Errorf(program.Unsupported, "property file line %d: entry function %s, only main is supported", i+1, m[1])
		}
		formulas = append(formulas, strings.Join(strings.Fields(m[2]), " "))
	}
	p := &Property{Text: text}
	switch {
	case len(formulas) == 0:
		return nil, program.Errorf(program.Unsupported, "property file has no CHECK line")
	case len(formulas) == 1 && unreachRe.MatchString(formulas[0]):
		p.Name = "unreach-call"
		p.Function = unreachRe.FindStringSubmatch(formulas[0])[1]
		if p.Function != "__VERIFIER_error" && p.Function != "reach_error" {
			// Only the two error functions of SV-COMP are modelled as the error location.
			p.Name = "unknown"
		}
	case allIn(formulas, memsafety):
		p.Name = "valid-memsafety"
	case len(formulas) == 1 && formulas[0] == "G valid-memcleanup":
		p.Name = "valid-memcleanup"
	case len(formulas) == 1 && formulas[0] == "G ! overflow":
		p.Name = "no-overflow"
	case len(formulas) == 1 && formulas[0] == "F end":
		p.Name = "termination"
	case len(formulas) == 1 && formulas[0] == "G ! data-race":
		p.Name = "no-data-race"
	case len(formulas) == 1 && formulas[0] == "G def-behavior":
		p.Name = "def-behavior"
	default:
		p.Name = "unknown"
	}
	return p, nil
}

func allIn(fs []string, set map[string]bool) bool {
	for _, f := range fs {
		if !set[f] {
			return false
		}
	}
	return true
}

// ReadPropertyFile reads and parses a .prp file.
func ReadPropertyFile(path string) (*Property, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, program.Errorf(program.Unsupported, "property file: %v", err)
	}
	p, err := ParseProperty(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
