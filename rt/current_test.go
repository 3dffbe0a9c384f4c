package rt

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// TestCurrentIsPerGoroutine: a task attached in one goroutine is not seen
// by another, and Detach ends it.
func TestCurrentIsPerGoroutine(t *testing.T) {
	if Current() != nil {
		t.Fatal("Current before any Attach is not nil")
	}
	var wg sync.WaitGroup
	tasks := make([]*Task, 8)
	for i := range tasks {
		tasks[i] = &Task{}
	}
	for i := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Attach(tasks[i])
			defer Detach()
			for range 100 {
				if got := Current(); got != tasks[i] {
					t.Errorf("goroutine %d: Current = %p, want %p", i, got, tasks[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	if Current() != nil {
		t.Fatal("Current in the test goroutine is not nil")
	}
	if n := attached.Load(); n != 0 {
		t.Fatalf("%d goroutines still attached after every Detach", n)
	}
}

// TestRootEnterAttaches: a goroutine that enters a root construct runs as
// the root task until the join, and as before after it.
func TestRootEnterAttaches(t *testing.T) {
	c := Enter(nil, 1, 1)
	if got := Current(); got == nil || got != c.Task() {
		t.Fatalf("Current in a root construct = %p, want its task %p", got, c.Task())
	}
	c.Join()
	if Current() != nil {
		t.Fatal("Current after the root join is not nil")
	}
}

// TestCurrentDetachWithoutAttach: Detach in a goroutine that never
// attached does nothing, also while others are attached.
func TestCurrentDetachWithoutAttach(t *testing.T) {
	Detach()
	other := &Task{}
	ready, done, exited := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		Attach(other)
		defer Detach()
		close(ready)
		<-done
		if Current() != other {
			t.Error("another goroutine's Detach ended this one's Attach")
		}
	}()
	<-ready
	Detach()
	if Current() != nil {
		t.Error("Current after a Detach without Attach is not nil")
	}
	close(done)
	<-exited
}

// TestCurrentNestedRootEnter: a root Enter in a goroutine already attached
// (to a child's task, or to an outer root reached through unchecked code)
// attaches the new root and restores the old task at its join.
func TestCurrentNestedRootEnter(t *testing.T) {
	k := &Task{}
	Attach(k)
	c := Enter(nil, 1, 1)
	if Current() != c.Task() {
		t.Fatal("a root Enter while attached did not attach the new root")
	}
	inner := nestedRootEnter()
	if Current() != inner.Task() {
		t.Fatal("a nested root Enter did not attach its root")
	}
	inner.Join()
	if Current() != c.Task() {
		t.Fatal("the nested root's join did not restore the outer root")
	}
	c.Join()
	if Current() != k {
		t.Fatal("the root's join did not restore the task attached before")
	}
	Detach()
	if Current() != nil || attached.Load() != 0 {
		t.Fatal("still attached after Detach")
	}
}

// nestedRootEnter is a root Enter one small frame below its caller's.
//
//go:noinline
func nestedRootEnter() *Construct { return Enter(nil, 1, 1) }

// TestCurrentPanicAboveRoot: a panic inside a root construct recovered
// higher up skips the join and leaves the goroutine attached to the
// abandoned root; the goroutine's next root Enter at the same depth (or
// above) drops it, so after that root's join the goroutine runs outside
// every construct again.
func TestCurrentPanicAboveRoot(t *testing.T) {
	defer glsClear()
	for i := range 3 {
		recovered(func() {
			c := Enter(nil, 1, 1)
			if i < 2 {
				panic("in the construct")
			}
			c.Join()
		})
	}
	if got := Current(); got != nil {
		t.Fatalf("Current after a clean root join = %p, want nil (the abandoned roots are restored)", got)
	}
	if n := attached.Load(); n != 0 {
		t.Fatalf("%d entries left", n)
	}
}

func recovered(f func()) {
	defer func() { _ = recover() }()
	f()
}

// TestCurrentGoexitInRoot: a goroutine that exits inside a root construct
// (runtime.Goexit, as t.Fatal does) leaves its entry behind; the next
// goroutine on the same g does not inherit its task, and its Detach removes
// the entry.
func TestCurrentGoexitInRoot(t *testing.T) {
	defer glsClear()
	if !gFast {
		glsOnce.Do(calibrate)
		if !gFast {
			t.Skip("goroutines are named by goid here: no g is shared")
		}
	}
	reused := false
	for range 20 {
		gs := make(chan uintptr)
		go func() {
			gs <- uintptr(getg())
			Enter(nil, 1, 1)
			runtime.Goexit()
		}()
		dead := <-gs
		runtime.Gosched()
		done := make(chan struct{})
		go func() {
			defer close(done)
			if uintptr(getg()) != dead {
				return
			}
			reused = true
			if got := Current(); got != nil {
				t.Errorf("a goroutine on a reused g inherited task %p", got)
			}
			Detach()
		}()
		<-done
		if reused {
			break
		}
	}
	if !reused {
		t.Skip("the runtime never reused the exited goroutine's g")
	}
}

// TestCurrentIDCalibration: where goroutines are named by their g, the id
// read from g is the one runtime.Stack prints, in many goroutines at once,
// and no two live goroutines share a g.
func TestCurrentIDCalibration(t *testing.T) {
	glsOnce.Do(calibrate)
	if !gFast {
		t.Skipf("%s/%s: goroutines are named by goid", runtime.GOOS, runtime.GOARCH)
	}
	const n = 200
	keys := make([]uintptr, n)
	var ready, wg sync.WaitGroup
	hold := make(chan struct{})
	for i := range n {
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			key, g := self()
			if got, want := idOf(g, key), goid(); got != want {
				t.Errorf("id read from g = %d, runtime.Stack says %d", got, want)
			}
			keys[i] = key
			ready.Done()
			<-hold // all n alive at once
		}()
	}
	ready.Wait()
	close(hold)
	wg.Wait()
	seen := map[uintptr]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Fatalf("two live goroutines have key %#x", k)
		}
		seen[k] = true
	}
}

// TestCurrentDoesNotAllocate: Current allocates nothing, outside and inside
// a construct, with others attached or not.
func TestCurrentDoesNotAllocate(t *testing.T) {
	check := func(name string) {
		if a := testing.AllocsPerRun(1000, func() { sinkTask = Current() }); a != 0 {
			t.Errorf("Current %s: %v allocs, want 0", name, a)
		}
	}
	check("outside, nothing attached")
	stop := attachOthers(100)
	check("outside, others attached")
	k := &Task{}
	Attach(k)
	check("inside, others attached")
	stop()
	check("inside")
	Detach()
}

var sinkTask *Task

// attachOthers starts n goroutines that stay attached until stop.
func attachOthers(n int) (stop func()) {
	var ready, done sync.WaitGroup
	quit := make(chan struct{})
	for range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			Attach(&Task{})
			defer Detach()
			ready.Done()
			<-quit
		}()
	}
	ready.Wait()
	return func() {
		close(quit)
		done.Wait()
	}
}

// TestCurrentAgainstReference: goroutines attach, re-attach, detach and read
// at random while waves of others attach and detach (growing the table and
// leaving tombstones); every Current agrees with the reference
// implementation, and in the end nothing is attached.
func TestCurrentAgainstReference(t *testing.T) {
	ref := newRefGLS()
	workers, ops, wave := 16, 300, 2000
	if testing.Short() || raceEnabled {
		workers, ops, wave = 8, 100, 500
	}
	tasks := make([]*Task, 8)
	for i := range tasks {
		tasks[i] = &Task{}
	}
	var wg sync.WaitGroup
	stopWaves := make(chan struct{})
	wavesDone := make(chan struct{})
	go func() {
		defer close(wavesDone)
		for {
			select {
			case <-stopWaves:
				return
			default:
			}
			attachOthers(wave)()
		}
	}()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for range ops {
				switch rng.IntN(4) {
				case 0:
					k := tasks[rng.IntN(len(tasks))]
					Attach(k)
					ref.attach(k)
				case 1:
					Detach()
					ref.detach()
				case 2: // a short-lived goroutine: its g is reused soon after
					done := make(chan struct{})
					go func() {
						defer close(done)
						if Current() != nil {
							t.Error("a new goroutine starts attached")
						}
						Attach(tasks[0])
						Detach()
					}()
					<-done
				}
				if got, want := Current(), ref.current(); got != want {
					t.Errorf("worker %d: Current = %p, the reference says %p", w, got, want)
					return
				}
			}
			Detach()
			ref.detach()
		}()
	}
	wg.Wait()
	close(stopWaves)
	<-wavesDone
	if n, m := attached.Load(), ref.len(); n != 0 || m != 0 {
		t.Fatalf("%d entries left in the table, %d in the reference", n, m)
	}
}

// TestGLSTableModel: the table against a map, with synthetic keys (the top
// bit set: no g address or goroutine id has it): inserts, updates, deletes
// and lookups at random, through several growths; four goroutines at once,
// each owning its keys, as goroutines own theirs.
func TestGLSTableModel(t *testing.T) {
	const top = ^uintptr(0)>>1 + 1
	n := 20000
	if testing.Short() || raceEnabled {
		n = 3000
	}
	tasks := make([]*Task, 16)
	for i := range tasks {
		tasks[i] = &Task{}
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 2))
			model := map[uintptr]*Task{}
			keys := uintptr(n / 4)
			for range 4 * n {
				key := top | uintptr(w)<<20 | uintptr(rng.UintN(uint(keys)))
				glsMu.Lock()
				if rng.IntN(3) == 0 {
					glsDelete(key)
					delete(model, key)
				} else {
					k := tasks[rng.IntN(len(tasks))]
					glsPut(key, uint64(key), k, nil)
					model[key] = k
				}
				glsMu.Unlock()
				probe := top | uintptr(w)<<20 | uintptr(rng.UintN(uint(keys)))
				var got *Task
				if s := glsTab.Load().lookup(probe, nil); s != nil {
					got = s.task
				}
				if got != model[probe] {
					t.Errorf("key %#x: table has %p, model %p", probe, got, model[probe])
					return
				}
			}
			glsMu.Lock()
			for key := range model {
				glsDelete(key)
			}
			glsMu.Unlock()
		}()
	}
	wg.Wait()
	if n := attached.Load(); n != 0 {
		t.Fatalf("%d entries left", n)
	}
}

// TestCurrentFallback: the tests above, with goroutines named by the id
// runtime.Stack prints (what gls_g.go does when calibrate finds no id in g,
// and gls_stack.go does everywhere).
func TestCurrentFallback(t *testing.T) {
	glsOnce.Do(calibrate)
	if !gFast {
		t.Skip("goroutines are named by goid already")
	}
	if attached.Load() != 0 {
		t.Fatal("entries left by an earlier test")
	}
	setFast(false)
	defer setFast(true)
	for _, tc := range []struct {
		name string
		f    func(*testing.T)
	}{
		{"IsPerGoroutine", TestCurrentIsPerGoroutine},
		{"DetachWithoutAttach", TestCurrentDetachWithoutAttach},
		{"NestedRootEnter", TestCurrentNestedRootEnter},
		{"DoesNotAllocate", TestCurrentDoesNotAllocate},
		{"AgainstReference", TestCurrentAgainstReference},
	} {
		t.Run(tc.name, tc.f)
	}
}

// TestGLSMillion: 10^6 entries at once (synthetic keys, as in
// TestGLSTableModel), every one found, then every one deleted.
func TestGLSMillion(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("10^6 entries: not with -short or -race")
	}
	const top, n = ^uintptr(0)>>1 + 1, 1_000_000
	tasks := make([]*Task, 16)
	for i := range tasks {
		tasks[i] = &Task{}
	}
	glsMu.Lock()
	for i := range uintptr(n) {
		glsPut(top|i, uint64(top|i), tasks[i%16], nil)
	}
	glsMu.Unlock()
	tab := glsTab.Load()
	for i := range uintptr(n) {
		if s := tab.lookup(top|i, nil); s == nil || s.task != tasks[i%16] {
			t.Fatalf("entry %d lost among 10^6", i)
		}
	}
	t.Logf("%d entries in %d slots", attached.Load(), len(tab.keys))
	glsMu.Lock()
	for i := range uintptr(n) {
		glsDelete(top | i)
	}
	glsMu.Unlock()
	if a := attached.Load(); a != 0 {
		t.Fatalf("%d entries left", a)
	}
}
