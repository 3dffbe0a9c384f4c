package rt

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// End-to-end tests of the happens-before layer with real goroutines: the
// calling goroutine becomes a root thread of a test engine (as HBRoot does
// with the program's), goroutines are started as a rewritten go statement
// starts them (Go, Start, Exit), and HB finds each goroutine's task.

// hbTestRoot makes the calling goroutine a root thread of a new engine
// whose reports go to out, and returns its task and the engine.
func hbTestRoot(t *testing.T, opts string, out io.Writer) (*Task, *hbEngine) {
	t.Helper()
	e := &hbEngine{rep: newReporter(parseOptions(opts, io.Discard), out)}
	th := e.root()
	th.roots, th.byRoot = 1, true
	hbSetCurrent(&th.task)
	t.Cleanup(func() {
		th.task.EndRoot()
		if HB() != nil {
			t.Error("the root's thread outlived EndRoot")
		}
	})
	if HB() != &th.task {
		t.Fatal("HB does not find the root's task")
	}
	return &th.task, e
}

// hbGo starts f as a rewritten go statement would: Go in the parent, Start
// and a deferred Exit in the child, which finds its task with HB.
func hbGo(parent *Task, f func(t *Task)) {
	go func(s *Spawn) {
		t := s.Start()
		defer t.Exit()
		f(HB())
	}(parent.Go())
}

func addrOf[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

// races returns the distinct data races e reported.
func races(e *hbEngine) int {
	n, _, _ := e.rep.counts()
	return n
}

// conflicts returns how many conflicts e's reporter met, the repeats of
// a report included.
func conflicts(e *hbEngine) int64 {
	e.rep.mu.Lock()
	defer e.rep.mu.Unlock()
	var n int64
	for _, en := range e.rep.entries {
		n += en.count.Load()
	}
	return n
}

func TestHBRaceThroughGoroutineAndChannel(t *testing.T) {
	RegisterSites(9000, []SiteInfo{{Pos: "main.go:10:2", What: "x"}, {Pos: "main.go:20:3", What: "x"}})
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	var x int
	ch := make(chan int)
	hbGo(root, func(t *Task) {
		t.Write(addrOf(&x), 9001) // unordered with the parent's write below (checked, not made: -race would see it)
		t.Chan(ch)
		ch <- 1
	})
	root.Write(addrOf(&x), 9000)
	root.Chan(ch)
	<-ch
	root.Foreign() // a hook: takes the receive's acquire
	if races(e) != 1 {
		t.Fatalf("%d races reported, want 1:\n%s", races(e), &out)
	}
	text := out.String()
	for _, want := range []string{"WARNING: DATA RACE (WRITE-WRITE)", "of x at main.go:", "by goroutine #", hbFoundBy + "\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

func TestHBSendReceiveOrders(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var x int
	ch := make(chan int, 1)
	hbGo(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.Chan(ch)
		ch <- 1
	})
	root.Chan(ch)
	<-ch
	_ = *R(root, &x, 2) // the receive's acquire is pending: applied before reporting
	*W(root, &x, 3) = 3
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on a value sent over a channel", n)
	}
}

func TestHBMutexHandOff(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x int
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		hbGo(root, func(t *Task) {
			defer wg.Done()
			for range 100 {
				t.Acquire(&mu)
				*RW(t, &x, 1)++
				t.Release(&mu)
			}
		})
	}
	wg.Wait()
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on a counter under a mutex", n)
	}
}

func TestHBRWMutexReaders(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var rw sync.RWMutex
	x := 1
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		hbGo(root, func(t *Task) {
			defer wg.Done()
			t.RAcquire(&rw)
			_ = *R(t, &x, 1)
			t.RRelease(&rw)
		})
	}
	root.Sync(&wg)
	wg.Wait()
	root.Acquire(&rw) // follows every RUnlock
	*W(root, &x, 2) = 2
	root.Release(&rw)
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on a value read under RLock and written under Lock", n)
	}
}

func TestHBWaitGroupJoin(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var wg sync.WaitGroup
	xs := make([]int, 8)
	for i := range xs {
		root.Sync(&wg)
		wg.Add(1)
		hbGo(root, func(t *Task) {
			*W(t, &xs[i], 1) = i
			t.Sync(&wg)
			wg.Done()
		})
	}
	root.Sync(&wg)
	wg.Wait()
	sum := 0
	for i := range xs {
		sum += *R(root, &xs[i], 2)
	}
	root.Foreign()
	if n := races(e); n != 0 || sum != 28 {
		t.Fatalf("%d races reported after a WaitGroup join (sum %d)", n, sum)
	}
}

func TestHBWaitGroupMissedJoin(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var wg sync.WaitGroup
	var x int
	wg.Add(1)
	hbGo(root, func(t *Task) {
		t.Write(addrOf(&x), 1)
		t.Sync(&wg)
		wg.Done()
	})
	root.Read(addrOf(&x), 2) // before Wait: unordered in every schedule (checked, not made)
	root.Sync(&wg)
	wg.Wait()
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported on a read before Wait, want 1", n)
	}
}

func TestHBOnce(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var once sync.Once
	var x int
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		hbGo(root, func(t *Task) {
			defer wg.Done()
			once.Do(t.Once(&once, func() { *W(t, &x, 1) = 42 }))
			if *R(t, &x, 2) != 42 {
				panic("once")
			}
		})
	}
	wg.Wait()
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on a value Once initialized", n)
	}
}

func TestHBAtomicFlag(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var x int
	var flag int32
	var wg sync.WaitGroup
	wg.Add(1)
	hbGo(root, func(t *Task) {
		defer wg.Done()
		*W(t, &x, 1) = 1
		atomic.StoreInt32(AW(t, &flag, 2), 1)
	})
	for {
		if atomic.LoadInt32(AR(root, &flag, 3)) == 1 {
			break
		}
	}
	_ = *R(root, &x, 4) // follows the store the load read
	wg.Wait()
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on a value published by an atomic flag", n)
	}
}

func TestHBFreshMemory(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	p := new([4]int)
	done := make(chan struct{})
	hbGo(root, func(t *Task) {
		*W(t, &p[1], 1) = 1
		close(done)
	})
	<-done            // not hooked: the parent does not follow the child
	q := New(root, p) // as if the collector gave p's memory to a new object
	*W(root, &q[1], 2) = 2
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on memory New forgot", n)
	}
}

func TestHBJSONRelation(t *testing.T) {
	var out bytes.Buffer
	root, _ := hbTestRoot(t, "format=json", &out)
	var x int
	ch := make(chan int)
	hbGo(root, func(t *Task) {
		*W(t, &x, 1) = 1
		ch <- 1
	})
	<-ch
	*W(root, &x, 2) = 2
	var rep jsonReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, &out)
	}
	if rep.Relation != "happens-before" || rep.Class != "DATA RACE" {
		t.Fatalf("relation %q, class %q, want happens-before, DATA RACE", rep.Relation, rep.Class)
	}
}

func TestHBChecksOff(t *testing.T) {
	old := defaultReporter()
	defer func() { global.rep = old }()
	global.rep = newReporter(parseOptions("check=0", io.Discard), io.Discard)
	if HBRoot() != nil {
		t.Fatal("HBRoot with check=0 made a thread")
	}
}

func TestHBEnterSharesThreadClock(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var x int
	ch := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	hbGo(root, func(t *Task) { // started before the write below
		defer wg.Done()
		t.Chan(ch)
		<-ch
		*W(t, &x, 1) = 1 // follows the block's send, and so the thread's write
	})
	*W(root, &x, 2) = 0
	c := Enter(root, 1, 0)
	if c.tree.hb != root.hb || c.Task().hb != nil {
		t.Fatal("the tree does not remember the thread, or its root task is not structural")
	}
	bt := c.Fork(0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		bt.Chan(ch) // a block's hook acts on the thread's clock
		ch <- 1
	}()
	<-done
	c.Join()
	wg.Wait()
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported", n)
	}
}

func TestHBNoAllocs(t *testing.T) {
	root, _ := hbTestRoot(t, "", io.Discard)
	x := New(nil, new([2]int))
	ch := make(chan int)
	root.Write(addrOf(&x[0]), 1)
	root.Read(addrOf(&x[1]), 2)
	root.Chan(ch)
	root.Foreign()
	if n := testing.AllocsPerRun(100, func() {
		root.Chan(ch) // a new epoch each time
		root.Write(addrOf(&x[0]), 1)
		root.Read(addrOf(&x[1]), 2)
		_ = *R(root, &x[1], 3)
		RA(root, x, 4)
	}); n != 0 {
		t.Fatalf("%v allocations per check of known locations", n)
	}
}

// TestHBThreadChecksWhileBlocksSync is the thread's own goroutine checking
// with the thread's task (a function its part of a construct calls, whose
// prologue found the thread) while the construct's blocks act on the
// thread's clock: under -race, the engine's own state must stay ordered.
func TestHBThreadChecksWhileBlocksSync(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	c := Enter(root, 2, 0)
	var wg sync.WaitGroup
	var sink [2]int
	for i := range 2 {
		bt := c.Fork(i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch := make(chan int, 1)
			for range 200 {
				bt.Chan(ch)
				bt.Foreign()
				_ = bt.Go()
				*W(bt, &sink[i], 1) = 1
			}
		}()
	}
	xs := make([]int, 64)
	for k := range 200 {
		*W(root, &xs[k%64], 2) = k
		root.Read(addrOf(&xs[(k+1)%64]), 3)
	}
	wg.Wait()
	c.Join()
	if root.hb.entered.Load() != 0 {
		t.Fatal("the thread still counts the tree as open after its join")
	}
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported", n)
	}
}

func TestHBSARIFRelation(t *testing.T) {
	var out bytes.Buffer
	root, e := hbTestRoot(t, "format=sarif", &out)
	x := new(int)
	ch := make(chan int)
	hbGo(root, func(t *Task) {
		t.Write(addrOf(x), 1)
		ch <- 1
	})
	<-ch
	root.Write(addrOf(x), 2)
	e.rep.mu.Lock()
	e.rep.writeSARIF(&out, nil)
	e.rep.mu.Unlock()
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID     string         `json:"ruleId"`
				Message    sarifMessage   `json:"message"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatalf("%v: %s", err, &out)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("want one result:\n%s", &out)
	}
	r := log.Runs[0].Results[0]
	if r.RuleID != "DATA_RACE" || r.Properties["relation"] != "happens-before" || !strings.HasSuffix(r.Message.Text, "; "+hbFoundBy) {
		t.Fatalf("result %+v: want DATA_RACE, relation happens-before, the found-by text", r)
	}
}

// TestHBForgetLargeObject: Make of a large slice with a thread's task
// forgets the history inside it (by a pass over the shadow, which holds
// fewer chunks than the slice spans) and keeps the history outside it.
func TestHBForgetLargeObject(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	big := make([]int, 4096)
	other := new(int)
	done := make(chan struct{})
	hbGo(root, func(t *Task) {
		for i := 0; i < len(big); i += 100 {
			t.Write(addrOf(&big[i]), 1)
		}
		t.Write(addrOf(other), 2)
		close(done)
	})
	<-done // not hooked: the parent does not follow the child
	Make(root, big)
	for i := 0; i < len(big); i += 100 {
		root.Write(addrOf(&big[i]), 3)
	}
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on memory Make forgot", n)
	}
	root.Write(addrOf(other), 4)
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported on memory outside it, want 1", n)
	}
}

// TestHBEveryEntryPoint calls every check entry point the rewriter may call
// with a thread's task, each on memory another thread wrote unordered, and
// expects each to reach the engine: one report per entry point's site.
func TestHBEveryEntryPoint(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	type pt struct{ x, y int }
	v := New(nil, new(struct { // on the heap: a stack that grows moves its variables
		x, y     int
		p        pt
		arr      [4]int
		s        [8]int
		bs       [8]byte
		a32, o32 int32
		a64, o64 int64
		mu, mu2  sync.Mutex
		m        map[int]int
	}))
	x, y, p, arr, a32, a64, o32, o64, mu, mu2 := &v.x, &v.y, &v.p, &v.arr, &v.a32, &v.a64, &v.o32, &v.o64, &v.mu, &v.mu2
	s, bs := v.s[:], v.bs[:]
	v.m = map[int]int{1: 1} // a map stored in the heap is on the heap
	m := v.m
	locs := []uintptr{addrOf(x), addrOf(y), addrOf(&p.x), addrOf(&p.y), addrOf(a32), addrOf(a64), addrOf(o32), addrOf(o64), mapID(&m)}
	for i := range arr {
		locs = append(locs, addrOf(&arr[i]))
	}
	for i := range s {
		locs = append(locs, addrOf(&s[i]), addrOf(&bs[i]))
	}
	done, finish := make(chan struct{}), make(chan struct{})
	hbGo(root, func(t *Task) {
		for _, a := range locs {
			t.Write(a, 1)
		}
		close(done)
		<-finish // the thread lives until the checks below ran
	})
	defer close(finish)
	<-done // not hooked: every check below is unordered with the writes
	calls := []func(site Site){
		func(st Site) { root.Read(addrOf(x), st) },
		func(st Site) { root.Write(addrOf(y), st) },
		func(st Site) { root.ReadRange(addrOf(&s[0]), 2, unsafe.Sizeof(s[0]), st) },
		func(st Site) { root.WriteRange(addrOf(&s[2]), 2, unsafe.Sizeof(s[0]), st) }, // s[2:4], whatever int's size
		func(st Site) { root.AtomicRead(addrOf(a32), st) },
		func(st Site) { root.AtomicWrite(addrOf(a64), st) },
		func(st Site) { _ = R(root, &p.x, st) },
		func(st Site) { _ = W(root, &p.y, st) },
		func(st Site) { _ = RW(root, &arr[0], st) },
		func(st Site) { _ = RA(root, arr, st) },
		func(st Site) { _ = WA(root, p, st) },
		func(st Site) { _ = RWA(root, arr, st) },
		func(st Site) { _ = AR(root, a32, st) },
		func(st Site) { _ = AW(root, a64, st) },
		func(st Site) { _ = AROnly(root, o32, st) },
		func(st Site) { _ = AWOnly(root, o64, st) },
		func(st Site) { _ = MR(root, m, st) },
		func(st Site) { _ = MW(root, m, st) },
		func(st Site) { _ = ReadAll(root, s[4:6], st) },
		func(st Site) { _ = WriteAll(root, s[6:], st) },
		func(st Site) { _ = ReadHead(root, s, 1, st) },
		func(st Site) { _ = WriteHead(root, bs, 1, st) },
		func(st Site) { ReadSpan(root, s, 1, 2, st) },
		func(st Site) { WriteSpan(root, bs, 2, 3, st) },
		func(st Site) { _ = Set(root, x, st, 1) },
		func(st Site) { Copy(root, s[:1], s[3:4], st, st) },
		func(st Site) { CopyString(root, bs[3:4], "z", st) },
		func(st Site) { _ = Grow(root, s[:4], 1, st) },
		func(st Site) { _ = AppendSlice(root, s[5:5], s[7:], st, st) },
		func(st Site) { _ = AppendString(root, bs[4:4], "z", st, st) },
	}
	for i, call := range calls {
		before := len(e.rep.entries)
		call(Site(100 + i))
		if len(e.rep.entries) == before {
			t.Errorf("entry point %d reported nothing", i)
		}
	}
	root.Acquire(mu) // locks reach the engine too (no report, no panic)
	root.Release(mu)
	root.Lock(addrOf(mu2))
	root.Unlock(addrOf(mu2))
}
