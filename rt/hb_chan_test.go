package rt

import (
	"bytes"
	"strings"
	"testing"
)

// TestChanLayout keeps chanFull honest: it reads the runtime's hchan
// (qcount, dataqsiz) without the channel's lock, which a Go release could
// change; this compares it with len and cap.
func TestChanLayout(t *testing.T) {
	for _, c := range []int{0, 1, 3} {
		ch := make(chan int, c)
		p := chanID(ch)
		for n := 0; n <= c; n++ {
			if got, want := chanFull(p), len(ch) == cap(ch); got != want {
				t.Fatalf("cap %d len %d: chanFull = %v, want %v", c, len(ch), got, want)
			}
			if n < c {
				ch <- n
			}
		}
		h := (*[2]uintptr)(p)
		if int(h[0]) != len(ch) || int(h[1]) != cap(ch) {
			t.Fatalf("hchan begins with %d, %d; len and cap are %d, %d", h[0], h[1], len(ch), cap(ch))
		}
	}
}

// TestHBBufferedChanAsync: a send into a buffer with room follows no
// receive, so a write after it races with a write before the receive
// (the race detector's TestRaceChanAsyncRev), in either order.
func TestHBBufferedChanAsync(t *testing.T) {
	RegisterSites(9300, []SiteInfo{{Pos: "a.go:1:1", What: "v"}, {Pos: "a.go:2:1", What: "v"}})
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	var v int
	c := make(chan int, 10)
	done := make(chan struct{})
	hbGo(root, func(k *Task) {
		k.ChanSend(c)
		c <- 0
		k.After()
		k.Write(addrOf(&v), 9300)
		close(done)
	})
	root.Write(addrOf(&v), 9301)
	root.ChanRecv(c)
	<-c
	root.After()
	<-done
	if races(e) != 1 {
		t.Fatalf("reported %d races, want 1:\n%s", races(e), out.String())
	}
}

// TestHBChanSemaphore: a buffered channel of capacity 1 used as a lock
// orders the sections it guards: the k-th receive (release) comes before
// the (k+1)-th send completes, and the send finds the buffer full.
func TestHBChanSemaphore(t *testing.T) {
	RegisterSites(9310, []SiteInfo{{Pos: "s.go:1:1", What: "n"}})
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	var n int
	sem := make(chan struct{}, 1)
	done := make(chan struct{})
	for range 4 {
		hbGo(root, func(k *Task) {
			k.ChanSend(sem)
			sem <- struct{}{}
			k.After()
			k.Read(addrOf(&n), 9310)
			n++
			k.Write(addrOf(&n), 9310)
			k.ChanRecv(sem)
			<-sem
			k.After()
			k.ChanSend(done)
			done <- struct{}{}
			k.After()
		})
	}
	for range 4 {
		root.ChanRecv(done)
		<-done
		root.After()
	}
	root.Read(addrOf(&n), 9310)
	if n != 4 || races(e) != 0 {
		t.Fatalf("n = %d, %d races reported, want 4 and none:\n%s", n, races(e), out.String())
	}
}

// TestHBReportSaysWhereStarted: a goroutine started by GoAt is named in a
// report with the go statement's position.
func TestHBReportSaysWhereStarted(t *testing.T) {
	RegisterSites(9320, []SiteInfo{{Pos: "g.go:1:1", What: "v"}, {Pos: "g.go:7:2", What: "go statement"}})
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	var v int
	done := make(chan struct{})
	go func(s *Spawn) {
		k := s.Start()
		defer k.Exit()
		k.Write(addrOf(&v), 9320)
		close(done)
	}(root.GoAt(9321))
	<-done // not hooked: unordered
	root.Write(addrOf(&v), 9320)
	if races(e) != 1 || !strings.Contains(out.String(), "started at g.go:7:2") {
		t.Fatalf("want one race naming where the goroutine was started:\n%s", out.String())
	}
}

// TestHBCloseRacesSend: a close unordered with a send on the same channel
// is a race on the channel's state; MakeChan forgets it for a new channel
// made where the old one was (here: the same channel made again, as the
// collector might).
func TestHBCloseRacesSend(t *testing.T) {
	for _, remake := range []bool{false, true} {
		RegisterSites(9330, []SiteInfo{{Pos: "c.go:1:1", What: "send on c"}, {Pos: "c.go:2:1", What: "close(c)"}})
		var out bytes.Buffer
		root, e := hbTestRoot(t, "", &out)
		c := make(chan int, 1)
		sent, closed, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
		hbGo(root, func(k *Task) {
			k.SentOn(c, 9330)
			c <- 1
			k.After()
			close(sent)
		})
		hbGo(root, func(k *Task) { // started before the close: unordered with it
			<-closed // not hooked
			k.SentOn(c, 9330)
			close(done)
		})
		<-sent // not hooked: unordered
		root.ClosedOn(c, 9331)
		close(c)
		if races(e) != 1 || !strings.Contains(out.String(), "close(c) at c.go:2:1") {
			t.Fatalf("want the close reported against the send:\n%s", out.String())
		}
		if remake {
			_ = MakeChan(root, c)
		}
		close(closed)
		<-done
		// The second send against the close is the first's pair of sites
		// in the other order: the same report, counted again.
		if want := map[bool]int64{false: 2, true: 1}[remake]; races(e) != 1 || conflicts(e) != want {
			t.Fatalf("remake %v: %d races, %d conflicts, want 1 and %d:\n%s", remake, races(e), conflicts(e), want, out.String())
		}
	}
}
