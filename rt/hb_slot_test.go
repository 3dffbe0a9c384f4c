package rt

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// Slot reuse (hb_slot.go): a goroutine joined before the next go
// statement leaves its slot for the next one, so clocks stay as long as
// the number of goroutines alive at once; reports still name each
// goroutine by its own number and go statement.

// hbGoExited is hbGo, and returns a channel closed once the goroutine's
// thread ended (Exit returned): not hooked, so it orders nothing the
// engine sees, but the next go statement finds the slot given back.
func hbGoExited(parent *Task, f func(t *Task)) <-chan struct{} {
	gone := make(chan struct{})
	go func(s *Spawn) {
		t := s.Start()
		f(HB())
		t.Exit()
		close(gone)
	}(parent.Go())
	return gone
}

// TestHBSpawnJoinLoopBoundedClock starts 100k goroutines one after
// another, each joined before the next starts (by a WaitGroup, a
// channel, or ExitJoined and G), each writing what the parent reads:
// no race, and no clock longer than a few slots. Before slots were
// reused, each goroutine took a new one and the root's clock grew to
// 100k entries (copied at every go statement: quadratic time).
func TestHBSpawnJoinLoopBoundedClock(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	for _, join := range []string{"waitgroup", "channel", "exitjoined"} {
		t.Run(join, func(t *testing.T) {
			root, e := hbTestRoot(t, "", io.Discard)
			var x int
			var wg sync.WaitGroup
			done := make(chan int)
			longest := 0
			for i := range n {
				body := func(k *Task) {
					*W(k, &x, 1) = i
					longest = max(longest, len(k.hb.vc)) // before the join: the parent reads it after
				}
				switch join {
				case "waitgroup":
					root.SyncRelease(&wg)
					wg.Add(1)
					gone := hbGoExited(root, func(k *Task) {
						body(k)
						k.SyncRelease(&wg)
						wg.Done()
					})
					root.SyncAcquire(&wg)
					wg.Wait()
					root.After()
					<-gone
				case "channel":
					gone := hbGoExited(root, func(k *Task) {
						body(k)
						k.ChanSend(done)
						done <- 1
						k.After()
					})
					root.ChanRecv(done)
					<-done
					root.After()
					<-gone
				case "exitjoined":
					wg.Add(1)
					go func(s *Spawn) { // as SpawnedJoined under wg.Go
						k := s.Start()
						defer wg.Done()
						defer k.ExitJoined()
						body(HB())
					}(root.Go())
					root.Foreign() // wg.Wait is not hooked: a wrapper's Wait is Foreign
					wg.Wait()
					root.After()
				}
				if *R(root, &x, 2) != i {
					t.Fatal("the join did not wait")
				}
			}
			if races(e) != 0 {
				t.Fatalf("%d races reported in a spawn/join loop", races(e))
			}
			if l := len(root.hb.vc); l > 4 || longest > 4 {
				t.Fatalf("after %d goroutines joined one by one: the root's clock has %d entries, a child's up to %d; want at most 4", n, l, longest)
			}
			if e.slots.serials != uint32(n)+1 {
				t.Fatalf("%d goroutines numbered, want %d", e.slots.serials, n+1)
			}
		})
	}
}

// TestHBUnjoinedKeepsSlot: a goroutine nothing joined keeps its slot
// after it ends; the next goroutine takes a new one, and a race of the
// next with the first is found.
func TestHBUnjoinedKeepsSlot(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var x int
	done := make(chan struct{})
	hbGo(root, func(k *Task) {
		*W(k, &x, 1) = 1
		close(done)
	})
	<-done // not hooked: the first goroutine's write is unordered with what follows
	first := e.slots.n
	fin := make(chan struct{})
	hbGo(root, func(k *Task) {
		*W(k, &x, 2) = 2
		close(fin)
	})
	<-fin
	if e.slots.n != first+1 || races(e) != 1 {
		t.Fatalf("slots %d → %d (want a new one), %d races (want 1)", first, e.slots.n, races(e))
	}
}

// TestHBIdleThreadKeepsSlotHistory: goroutine A writes x, and the root
// joins it; B takes A's slot and ends without an access; C, started by a
// goroutine D that ran before A and follows nothing of it, reads x: a
// race with A's write. B's last access was taken as none, so D, which
// knows nothing of the slot, covered it, and C continued the slot's clock
// past A's write, which then looked ordered before C's read
// (TestHBAgainstOracle, seed 104435, minimized: a new root took the slot
// there).
func TestHBIdleThreadKeepsSlotHistory(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var x int
	start, cdone := make(chan struct{}), make(chan struct{})
	go func(s *Spawn) { // D
		d := s.Start()
		defer d.Exit()
		<-start // not hooked
		// C, D's child, started once B ended
		go func(s *Spawn) {
			c := s.Start()
			defer c.Exit()
			_ = *R(c, &x, 2)
			close(cdone)
		}(d.Go())
	}(root.Go())
	joined := make(chan struct{})
	gone := hbGoExited(root, func(a *Task) { // A
		*W(a, &x, 1) = 1
		a.ChanSend(joined)
		joined <- struct{}{}
		a.After()
	})
	root.ChanRecv(joined)
	<-joined
	root.After()
	<-gone
	slotA := e.slots.n
	<-hbGoExited(root, func(*Task) {}) // B
	if len(e.slots.owners[slotA-1]) != 2 {
		t.Fatalf("B did not take A's slot %d: %+v", slotA, e.slots.owners)
	}
	close(start)
	<-cdone
	wantRaces(t, e, 1)
}

// TestHBReportNamesReusedSlot: goroutine B takes the slot of goroutine A,
// which the root joined; a goroutine C that neither joined races with
// A's write and with B's: each report names the goroutine that made the
// access and its go statement, not the slot's current holder.
func TestHBReportNamesReusedSlot(t *testing.T) {
	RegisterSites(9400, []SiteInfo{
		{Pos: "s.go:1:1", What: "a"}, {Pos: "s.go:2:1", What: "b"}, {Pos: "s.go:3:1", What: "a"}, {Pos: "s.go:4:1", What: "b"},
		{Pos: "s.go:10:2", What: "go statement"}, {Pos: "s.go:11:2", What: "go statement"}, {Pos: "s.go:12:2", What: "go statement"},
	})
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	var a, b int
	start, cdone := make(chan struct{}), make(chan struct{})
	go func(s *Spawn) { // C: started first, unordered with A and B
		k := s.Start()
		defer k.Exit()
		<-start // not hooked
		k.Read(addrOf(&a), 9402)
		k.Read(addrOf(&b), 9403)
		close(cdone)
	}(root.GoAt(9404))
	joined := make(chan struct{})
	for i, site := range []Site{9405, 9406} { // A, then B
		gone := make(chan struct{})
		go func(s *Spawn) {
			k := s.Start()
			if i == 0 {
				k.Write(addrOf(&a), 9400)
			} else {
				k.Write(addrOf(&b), 9401)
			}
			k.ChanSend(joined)
			joined <- struct{}{}
			k.After()
			k.Exit()
			close(gone) // not hooked
		}(root.GoAt(site))
		root.ChanRecv(joined)
		<-joined
		root.After()
		<-gone
	}
	slotA := e.slots.owners[0]
	close(start)
	<-cdone
	if races(e) != 2 {
		t.Fatalf("%d races, want 2:\n%s", races(e), &out)
	}
	var reused bool
	for _, log := range e.slots.owners {
		reused = reused || len(log) > 1
	}
	if !reused {
		t.Fatalf("B did not take A's slot (slots %d, first slot's threads %v)", e.slots.n, slotA)
	}
	// root #1, C #2, A #3, B #4, in the order made
	for _, want := range []string{
		"Read of a at s.go:3:1 by goroutine #2 started at s.go:10:2\nPrevious write of a at s.go:1:1 by goroutine #3 started at s.go:11:2\n",
		"Read of b at s.go:4:1 by goroutine #2 started at s.go:10:2\nPrevious write of b at s.go:2:1 by goroutine #4 started at s.go:12:2\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks\n%s\ngot:\n%s", want, &out)
		}
	}
}

// TestHBSlotRingOrder: exited slots are tried the latest first, an
// uncovered one goes to the back, and at most hbReuseTries are tried.
func TestHBSlotRingOrder(t *testing.T) {
	var s hbSlots
	for range 12 {
		var vc vclock
		s.take(&vc, 0, nil)
	}
	for u := uint32(1); u <= 12; u++ {
		s.retire(u, 5, 7, nil) // every slot's thread accessed last at clock 5 and ended at 7, slot 12 last
	}
	cover := func(slots ...uint32) vclock {
		vc := make(vclock, 13)
		for _, u := range slots {
			vc[u] = 5
		}
		return vc
	}
	for _, tc := range []struct {
		vc   vclock
		want uint32
	}{
		{cover(12, 11), 12}, // the latest exit first
		{cover(1), 0},       // slot 1 is past hbReuseTries: a new slot; 11..4 go to the back
		{cover(1, 2, 3), 3}, // next in line: 3, 2, 1
		{cover(11), 11},     // 11 went to the back: reached after 2 and 1
	} {
		vc := tc.vc.clone()
		got, _, _ := s.take(&vc, 0, nil)
		if tc.want == 0 {
			if got <= 12 {
				t.Fatalf("took slot %d, want a new one", got)
			}
			continue
		}
		if got != tc.want || vc[got] != 8 {
			t.Fatalf("took slot %d at clock %d, want %d at 8 (free: %v)", got, vc[got], tc.want, fmt.Sprint(s.free))
		}
	}
}

// TestHBSlotLimit: a mark keeps 16 bits of slot (hb_cell.go), so the
// 65,536th slot is refused with the limit's message, as -race refuses
// its 8,129th goroutine, rather than wrapping into another slot's epochs.
func TestHBSlotLimit(t *testing.T) {
	var s hbSlots
	var vc vclock
	for range hbMaxSlot {
		s.take(&vc, 0, nil)
	}
	if got := markEpoch(mkMark(mkEpoch(hbMaxSlot, 1<<32-1), hbAllMask)); epochThread(got) != hbMaxSlot || epochClock(got) != 1<<32-1 {
		t.Fatalf("the last slot's last epoch does not survive a mark: %#x", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "limit on 65535 simultaneously alive goroutines") {
			t.Fatalf("slot %d: recovered %v, want the limit's panic", hbMaxSlot+1, r)
		}
	}()
	s.take(&vc, 0, nil)
}
