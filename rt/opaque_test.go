package rt

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// TestOpaque: while a call into plain code runs (Opaque … Done, or Plain),
// Current is nil, and afterwards the task is back; calls nest; a panic
// through Plain unmarks; a panic that skips Done leaves the task opaque
// (less checked, never more) until Recovered clears it.
func TestOpaque(t *testing.T) {
	k := &Task{}
	Attach(k)
	defer Detach()
	if Current() != k {
		t.Fatal("not attached")
	}
	in := func() bool { return Current() == nil }
	if !Done1(Opaque(in)()) {
		t.Error("Current is not nil inside Opaque … Done1")
	}
	if Current() != k {
		t.Error("Done1 did not restore the task")
	}
	Plain(func() {
		if !in() {
			t.Error("Current is not nil inside Plain")
		}
		if a, b := Done2(Opaque(in)(), in()); !a || !b {
			t.Error("nested: Current is not nil")
		}
		if !in() {
			t.Error("nested Done2 ended the outer mark")
		}
	})
	if Current() != k {
		t.Error("Plain did not restore the task")
	}
	func() {
		defer func() { _ = recover() }()
		Plain(func() { panic("x") })
	}()
	if Current() != k {
		t.Error("a panic through Plain left the task opaque")
	}
	func() {
		defer func() { _ = recover() }()
		Done1(Opaque(func() int { panic("x") })())
	}()
	if Current() != nil {
		t.Error("a panic that skipped Done made the task checked again")
	}
	func() {
		defer func() { Recovered(recover()) }()
		Done1(Opaque(func() int { panic("x") })())
	}()
	if Current() != k {
		t.Error("Recovered did not clear the count")
	}
}

// TestPlainArgs: the deferred forms call f with the arguments given, the
// task opaque inside and restored after; an argument is assigned to f's
// parameter, so a *bytes.Buffer is given for an io.Writer.
func TestPlainArgs(t *testing.T) {
	k := &Task{}
	Attach(k)
	defer Detach()
	var got []int
	add := func(xs ...int) {
		if Current() != nil {
			t.Error("Current is not nil inside PlainArgsN")
		}
		got = append(got, xs...)
	}
	PlainArgs1(func(a int) { add(a) })(1)
	PlainArgs2(func(a, b int) { add(a, b) })(2, 3)
	PlainArgs3(func(a, b int, c int8) { add(a, b, int(c)) })(4, 5, 6)
	if fmt.Sprint(got) != "[1 2 3 4 5 6]" || Current() != k {
		t.Error(got, Current() == k)
	}
	var buf bytes.Buffer
	PlainArgs1(func(w io.Writer) { fmt.Fprint(w, "w") })(&buf)
	if buf.String() != "w" {
		t.Errorf("PlainArgs1 with an io.Writer wrote %q", buf.String())
	}
}

// TestOpaqueOutside: outside every construct the helpers only pass their
// values on.
func TestOpaqueOutside(t *testing.T) {
	if a, b, c := Done3(Opaque(1), 2, 3); a+b+c != 6 || Current() != nil {
		t.Error(a, b, c)
	}
	Plain(func() {})
	if Recovered(nil) != nil {
		t.Error("Recovered(nil)")
	}
}

// BenchmarkPlainCall: what a call from checked code into a package that is
// not rewritten pays to make its task opaque and back: a call with a result
// (Opaque … Done1) and one without (Plain), outside every construct and
// inside one, against the bare call.
func BenchmarkPlainCall(b *testing.B) {
	run := func(b *testing.B) {
		b.Run("bare", func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for b.Loop() {
				s = plainCallee(s)
			}
			sinkInt = int64(s)
		})
		b.Run("result", func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for b.Loop() {
				s = Done1(plainCallee(Opaque(s)))
			}
			sinkInt = int64(s)
		})
		b.Run("void", func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for b.Loop() {
				Plain(func() { s = plainCallee(s) })
			}
			sinkInt = int64(s)
		})
	}
	b.Run("outside", run)
	stop := attachOthers(1000)
	k := &Task{}
	Attach(k)
	b.Run("inside", run)
	Detach()
	stop()
}
