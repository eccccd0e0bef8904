// Package heap reports the size of the process's Go heap, the measure of
// the memory budgets of the symbolic execution (backend/builtin) and the
// explicit-state search (explicit.Explore).
package heap

import "runtime/metrics"

// Bytes returns the bytes of heap objects, live and not yet swept. Safe
// for concurrent use.
func Bytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
