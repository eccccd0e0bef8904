package main

import (
	"fmt"
	"os"
	"strings"

	"cegpv.dev/cegpv/svcomp"
	"cegpv.dev/cegpv/witness"
)

// unreachCall is the property file text of SV-COMP 2015's unreach-call,
// the specification of a witness when no --propertyfile was given.
const unreachCall = "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n"

// writeWitness writes the SV-COMP witness of o to path: a violation
// witness built from the replayed run of a FALSE (GraphML 1.0 for
// .graphml, YAML 2.0 for .yml and .yaml), a correctness witness for a
// TRUE (GraphML 1.0 or a YAML 2.0 invariant set, by the same suffixes).
// UNKNOWN writes none.
func writeWitness(path string, o *outcome, prop *svcomp.Property, cf *commonFlags) error {
	model, err := cf.dataModel()
	if err != nil {
		return err
	}
	info := witness.Info{ProgramFile: o.File, Specification: unreachCall, Producer: "cegpv " + svcomp.Version(), Model: model}
	if prop != nil {
		info.Specification = prop.Text
	}
	yaml := strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".yaml")
	var out []byte
	switch o.Verdict {
	case "FALSE":
		if o.run == nil || o.prog == nil {
			return fmt.Errorf("no replayed run to write")
		}
		if yaml {
			out, err = witness.ViolationYAML(info, o.prog, o.run)
		} else {
			out, err = witness.Violation(info, o.prog, o.run)
		}
	case "TRUE":
		if yaml {
			out, err = witness.CorrectnessYAML(info)
		} else {
			out, err = witness.Correctness(info)
		}
	default:
		return nil
	}
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
