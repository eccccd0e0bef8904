package cli

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cegpv.dev/cegpv/report"
	"cegpv.dev/cegpv/svcomp"
)

// benchMeta describes the machine and the limits of a bench run (the
// results' metadata and BenchExec's result XML attributes).
func benchMeta(bf *benchFlags, start time.Time) report.Meta {
	m := report.Meta{Tool: "cegpv", Version: svcomp.Version(), Date: start.Format(time.RFC3339), Cores: runtime.NumCPU(),
		TimeLimit: bf.timeout.Seconds(), MemLimit: int64(bf.memlimit) << 20, Jobs: bf.jobs, Options: strings.TrimSpace("--unwind " + strconv.Itoa(bf.unwind) + " " + bf.extra)}
	if bf.loopOnly {
		m.Options += " --loop-only"
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				m.Revision = s.Value
			}
		}
	}
	m.Host, _ = os.Hostname()
	var u syscall.Utsname
	if syscall.Uname(&u) == nil {
		str := func(b [65]int8) string {
			var sb strings.Builder
			for _, c := range b {
				if c == 0 {
					break
				}
				sb.WriteByte(byte(c))
			}
			return sb.String()
		}
		m.OS = str(u.Sysname) + " " + str(u.Release)
	}
	m.CPU = procField("/proc/cpuinfo", "model name")
	if kb, err := strconv.ParseInt(strings.Fields(procField("/proc/meminfo", "MemTotal") + " 0")[0], 10, 64); err == nil {
		m.RAMBytes = kb * 1024
	}
	return m
}

// procField is the value of the first "key: value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
