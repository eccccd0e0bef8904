package main

import (
	"github.com/hashicorp/go-hclog"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/backend/builtin"
)

func init() {
	backends["builtin"] = func(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
		// In cegpv mode the explicit-state search runs once, beside the
		// whole loop (cegpv.Verify) and beside the search beyond the bounds
		// (cegpv.Beyond), on the program itself; the backend's own search
		// would repeat it beside the last level's check of that program,
		// at the same bounds, with a second search's worth of memory.
		noExplicit := !vf.explicit || vf.mode == "cegpv"
		return builtin.New(builtin.Options{Solver: solverArgv(vf.solver), Logger: log, NoDeepening: vf.noDeepen, NoExplicit: noExplicit}), nil
	}
}
