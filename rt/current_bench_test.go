package rt

import "testing"

// BenchmarkCurrent: what the prologue of a function reached through a
// function value pays to find its task. outside: nothing attached
// anywhere; outside-others-attached: 1000 other goroutines inside
// constructs; inside: the caller attached; fallback-goid: the lookup where
// there is no getg (the id from runtime.Stack).
func BenchmarkCurrent(b *testing.B) {
	run := func(b *testing.B) {
		b.ReportAllocs()
		var n int
		for b.Loop() {
			if Current() != nil {
				n++
			}
		}
		sinkInt = int64(n)
	}
	b.Run("outside", run)
	stop := attachOthers(1000)
	b.Run("outside-others-attached", run)
	k := &Task{}
	Attach(k)
	b.Run("inside-others-attached", run)
	stop()
	b.Run("inside", run)
	b.Run("fallback-goid", func(b *testing.B) {
		b.ReportAllocs()
		key := uintptr(goid())
		glsMu.Lock()
		glsPut(key, uint64(key), k, nil)
		glsMu.Unlock()
		var n int
		for b.Loop() {
			if glsTab.Load().lookup(uintptr(goid()), nil) != nil {
				n++
			}
		}
		sinkInt = int64(n)
		glsMu.Lock()
		glsDelete(key)
		glsMu.Unlock()
	})
	Detach()
}

// BenchmarkAttachDetach: what each goroutine a construct forks pays to
// attach its task and detach it.
func BenchmarkAttachDetach(b *testing.B) {
	k := &Task{}
	b.ReportAllocs()
	for b.Loop() {
		Attach(k)
		Detach()
	}
}

// BenchmarkFuncValueCall: a call through a function value outside every
// construct, plain, with the prologue the rewriter gave functions that may
// be called that way before session 8 (Current alone), and with the gated
// one it gives them now (Attached, then Current).
func BenchmarkFuncValueCall(b *testing.B) {
	for _, bc := range []struct {
		name string
		f    func(int) int
	}{{"plain", plainCallee}, {"prologue", prologueCallee}, {"gated", gatedCallee}} {
		b.Run(bc.name, func(b *testing.B) {
			f, s := bc.f, 0
			for b.Loop() {
				s = f(s)
			}
			sinkInt = int64(s)
		})
	}
}

//go:noinline
func plainCallee(x int) int { return x + 1 }

//go:noinline
func prologueCallee(x int) int {
	if t := Current(); t != nil {
		return checkedCallee(t, x)
	}
	return x + 1
}

//go:noinline
func checkedCallee(_ *Task, x int) int { return x + 1 }

//go:noinline
func gatedCallee(x int) int {
	if Attached() {
		if t := Current(); t != nil {
			return checkedCallee(t, x)
		}
	}
	return x + 1
}
