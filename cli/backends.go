package cli

import (
	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
	"cegpv.dev/cegpv/backend/cbmc"
	"cegpv.dev/cegpv/backend/esbmc"
	"cegpv.dev/cegpv/backend/smt"
)

func init() {
	backends["builtin"] = func(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
		argv, err := smt.Command(vf.solver)
		if err != nil {
			return nil, err
		}
		var beyond []string
		if vf.beyondSolver != "" {
			if beyond, err = smt.Command(vf.beyondSolver); err != nil {
				return nil, err
			}
		}
		return builtin.New(builtin.Options{Solver: argv, BeyondSolver: beyond, Logger: log, NoDeepening: vf.noDeepen}), nil
	}
	backends["esbmc"] = func(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
		if vf.esbmcSolver != "" {
			if err := esbmc.ValidSolver(vf.esbmcSolver); err != nil {
				return nil, err
			}
		}
		return esbmc.New(esbmc.Options{Path: vf.esbmcPath, Solver: vf.esbmcSolver, Logger: log}), nil
	}
	backends["cbmc"] = func(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
		return cbmc.New(cbmc.Options{Path: vf.cbmcPath, Logger: log}), nil
	}
}
