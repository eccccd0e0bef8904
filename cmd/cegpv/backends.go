package main

import (
	"os"
	"os/exec"
	"path/filepath"

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
		return builtin.New(builtin.Options{Solver: argv, Logger: log, NoDeepening: vf.noDeepen}), nil
	}
	backends["esbmc"] = func(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
		return esbmc.New(esbmc.Options{Path: toolPath(vf.esbmcPath, "esbmc"), Logger: log}), nil
	}
	backends["cbmc"] = func(vf *verifyFlags, log hclog.Logger) (backend.Backend, error) {
		return cbmc.New(cbmc.Options{Path: toolPath(vf.cbmcPath, "cbmc"), Logger: log}), nil
	}
}

// toolPath is the external checker to run: the flag's value, else name on
// PATH, else name next to the cegpv executable (make deps links bin/esbmc
// beside bin/cegpv), else name (the backend reports it missing).
func toolPath(flagVal, name string) string {
	if flagVal != "" {
		return flagVal
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return name
}
