package svcomp

import (
	"runtime/debug"
	"strings"
)

// Version returns cegpv's version as one line for `cegpv --version` (BenchExec's
// tool-info modules take the first line of that output as the tool version): the main
// module's version, and when it is "(devel)" the VCS revision and time recorded by the
// go build (with "+dirty" for a modified tree), else "unknown".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	return version(bi)
}

func version(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return strings.TrimSpace("devel-" + rev + dirty + " " + at)
}
