package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// Tree returns pid and its descendants, read from /proc (children are
// found by their parent pid, so processes in process groups of their own,
// as Command starts them, are included).
func Tree(pid int) []int {
	parent := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := statField(p, 1); ok {
			parent[pp] = append(parent[pp], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, parent[out[i]]...)
	}
	return out
}

// statField returns field k (0: the state, 1: the parent pid, counted
// after the command name) of /proc/pid/stat as a number.
func statField(pid, k int) (int, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if k >= len(f) {
		return 0, false
	}
	n, err := strconv.Atoi(string(f[k]))
	return n, err == nil
}

// RSS returns the resident set of pid in bytes (0 when it is gone).
func RSS(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "statm"))
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return pages * int64(os.Getpagesize())
}

// TreeRSS is the resident set of pid and its descendants together.
func TreeRSS(pid int) int64 {
	var sum int64
	for _, p := range Tree(pid) {
		sum += RSS(p)
	}
	return sum
}

// MemoryWatch is a running memory limit (WatchMemory).
type MemoryWatch struct {
	Limit int64
	peak  atomic.Int64
	hit   atomic.Bool
	stop  context.CancelFunc
	done  chan struct{}
}

// WatchMemory enforces a memory limit on pid and its descendants, as
// BenchExec's cgroup does on a run: at once and every 100 ms it sums their resident
// sets, and when the sum exceeds limit bytes it kills them all (each
// descendant's process group and the descendant; pid itself too unless
// self, when pid is the calling process) and calls exceeded once.
// Stop ends the watch.
func WatchMemory(pid int, limit int64, self bool, exceeded func(rss int64)) *MemoryWatch {
	ctx, cancel := context.WithCancel(context.Background())
	w := &MemoryWatch{Limit: limit, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for first := true; ; first = false {
			if !first {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
			}
			rss := TreeRSS(pid)
			if rss > w.peak.Load() {
				w.peak.Store(rss)
			}
			if rss <= limit {
				continue
			}
			w.hit.Store(true)
			for _, p := range Tree(pid) {
				if p == pid && self {
					continue
				}
				syscall.Kill(-p, syscall.SIGKILL) // a group it leads
				syscall.Kill(p, syscall.SIGKILL)
			}
			exceeded(rss)
			return
		}
	}()
	return w
}

// Stop ends the watch and waits for it.
func (w *MemoryWatch) Stop() { w.stop(); <-w.done }

// Exceeded reports whether the limit was reached.
func (w *MemoryWatch) Exceeded() bool { return w.hit.Load() }

// Reason says what the watch did, for an UNKNOWN of kind Memout ("out of
// memory: ...", BenchExec's OUT OF MEMORY).
func (w *MemoryWatch) Reason() string {
	return fmt.Sprintf("%d MB resident, over the memory limit of %d MB (--memlimit)", w.peak.Load()>>20, w.Limit>>20)
}
