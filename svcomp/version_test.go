package svcomp

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "unknown"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "2f98f0212345678999"}, {Key: "vcs.time", Value: "2026-11-25T01:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"devel-2f98f0212345+dirty 2026-11-25T01:00:00Z"},
	} {
		if got := version(&c.bi); got != c.want {
			t.Errorf("version(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
	if v := Version(); v == "" || strings.Contains(v, "\n") {
		t.Errorf("Version() = %q, want one non-empty line", v)
	}
}
