package rt

import (
	"io"
	"testing"
)

// BenchmarkHBGoStartExit is a go statement's hooks on a thread of a test
// engine: the parent's Go, the child's Start and Exit (run here by one
// goroutine), which register the thread and mark it ended (hb_all.go).
// The parent's clock grows with every thread, as a program's does.
func BenchmarkHBGoStartExit(b *testing.B) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	parent := &e.root().task
	b.ReportAllocs()
	for b.Loop() {
		parent.Go().Start().Exit()
	}
}
