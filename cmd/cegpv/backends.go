package main

import (
	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
)

func init() {
	backends["builtin"] = func(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
		return builtin.New(builtin.Options{Solver: solverArgv(vf.solver), Logger: log, NoDeepening: vf.noDeepen}), nil
	}
}
