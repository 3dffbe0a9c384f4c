package rt

import (
	"io"
	"testing"
)

// TestHBObjectCacheKeys: a thread that synchronizes on many objects (its
// cache of eight evicts at almost every one), with three kinds of clock
// at each address (a channel's senders and receivers, an atomic), follows
// exactly the releases it acquired: a release to one kind at an address
// does not order an acquire of another kind there, nor of a key that
// shares its cache slot.
func TestHBObjectCacheKeys(t *testing.T) {
	_, e := hbTestRoot(t, "", io.Discard)
	root := e.root()
	root.roots = 1
	child := root.task.Go().hb.thread() // ordered after the root's start only
	kinds := [...]uint8{hbObject, hbAtomic, hbChanRecv}
	const addrs = 64
	key := func(i, k int) hbKey { return hbKey{0x70000 + uintptr(i)*8, kinds[k]} }
	loc := func(i, k int) uintptr { return 0x80000 + uintptr(i*len(kinds)+k)*8 }
	site := func(i, k int) Site { return Site(1 + i*len(kinds) + k) }
	acquired := func(i, k int) bool { return (i*7+k)%3 != 0 }
	for i := range addrs {
		for k := range kinds { // each write and release by a thread of its own: a release carries that write only
			w := root.task.Go().hb.thread()
			w.task.Write(loc(i, k), site(i, k))
			th := w.task.hbOf()
			th.releaseTo(key(i, k))
			th.mu.Unlock()
			w.task.Exit()
		}
	}
	want := 0
	for i := range addrs {
		for k := range kinds {
			if !acquired(i, k) {
				want++
				continue
			}
			th := child.task.hbOf()
			th.addPending(key(i, k))
			th.mu.Unlock()
			child.task.After() // takes the acquire
		}
	}
	for i := range addrs {
		for k := range kinds {
			child.task.Read(loc(i, k), site(i, k)+1000)
		}
	}
	if got := races(e); got != want {
		t.Fatalf("%d races, want %d: one for each release the child did not acquire", got, want)
	}
}
