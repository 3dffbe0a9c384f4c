package rt

import (
	"io"
	"testing"
)

// A go statement's stack is kept once however many goroutines it starts,
// and the owner of a goroutine's slot holds it.
func TestHBDepotInternsOnce(t *testing.T) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := &e.root().task
	spawnHere := func() *Spawn { return p.GoAt(0) }
	var firsts []*hbStack
	for range 100 {
		s := spawnHere()
		o := e.slots.owner(mkEpoch(s.hb.id, s.hb.vc[s.hb.id]))
		if o.stack == nil {
			t.Fatal("the goroutine's owner has no creation stack")
		}
		firsts = append(firsts, o.stack)
	}
	other := p.GoAt(0) // another call site: another stack
	if o := e.slots.owner(mkEpoch(other.hb.id, other.hb.vc[other.hb.id])); o.stack == firsts[0] {
		t.Error("two go statements share a stack")
	}
	for _, s := range firsts {
		if s != firsts[0] {
			t.Fatal("one go statement's stack kept twice")
		}
	}
	if n := len(e.stacks.ids); n != 2 {
		t.Errorf("%d stacks kept, want 2", n)
	}
}
