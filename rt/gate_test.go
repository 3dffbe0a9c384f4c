package rt

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// gatedPrologue is the prologue the rewriter puts at the start of a
// function reached through a value (rewrite/prologue.go), returning the
// task its checked clone would run with, or nil when it runs as written.
//
//go:noinline
func gatedPrologue() *Task {
	if Attached() {
		if t := Current(); t != nil {
			return t
		}
	}
	return nil
}

// TestAttachedGate: the gate is off with nothing attached, on while the
// calling goroutine or any other is attached, and off again after the last
// Detach, and it never changes what the prologue decides.
func TestAttachedGate(t *testing.T) {
	if Attached() || gatedPrologue() != nil {
		t.Fatal("gate on with nothing attached")
	}
	k := &Task{}
	Attach(k)
	if !Attached() || gatedPrologue() != k {
		t.Fatalf("attached: gate %v, prologue %p, want on and %p", Attached(), gatedPrologue(), k)
	}
	Detach()
	if Attached() {
		t.Fatal("gate on after the last Detach")
	}
	stop := attachOthers(4)
	if !Attached() {
		t.Fatal("gate off while other goroutines are attached")
	}
	if gatedPrologue() != nil {
		t.Fatal("prologue of an unattached goroutine runs the clone while others are attached")
	}
	stop()
	if Attached() {
		t.Fatal("gate on after the others detached")
	}
	c := Enter(nil, 1, 1) // a root Enter attaches its goroutine
	if !Attached() || gatedPrologue() == nil {
		t.Fatal("gate off in the goroutine of a root construct")
	}
	c.Join()
	if Attached() {
		t.Fatal("gate on after the root joined")
	}
}

// TestAttachedGateNeverMissesClone: goroutines attach, check, detach and
// re-attach at random while others do the same and waves of goroutines
// attach and detach around them (the counter goes up and down, through zero
// and back): every check made while attached takes the clone with its own
// task, and every check made while not attached runs as written. An
// attached goroutine that saw the gate off would lose its reports.
func TestAttachedGateNeverMissesClone(t *testing.T) {
	workers, ops := 8, 3000
	if testing.Short() || raceEnabled {
		ops = 500
	}
	var missed, wrong atomic.Int64
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
			attachOthers(32)()
		}
	}()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			mine := &Task{}
			on := false
			for range ops {
				switch r.IntN(4) {
				case 0:
					Attach(mine)
					on = true
				case 1:
					Detach()
					on = false
				case 2:
					runtime.Gosched() // let the others move the counter
				}
				got := gatedPrologue()
				switch {
				case on && got != mine:
					missed.Add(1)
				case !on && got != nil:
					wrong.Add(1)
				}
			}
			if on {
				Detach()
			}
		}()
	}
	wg.Wait()
	close(stopWaves)
	<-wavesDone
	if n := missed.Load(); n != 0 {
		t.Errorf("%d checks made by an attached goroutine did not take its clone", n)
	}
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d checks made by an unattached goroutine took a clone", n)
	}
	if Attached() {
		t.Errorf("gate on after every goroutine detached (%d attached)", attached.Load())
	}
}

// TestAttachedGateChild: a goroutine a construct forks attaches itself at
// its start (Bind, Fork's task passed to go), so the first prologue it runs
// sees the gate on even when its parent is the only other goroutine
// attached and detaches at once.
func TestAttachedGateChild(t *testing.T) {
	for range 200 {
		c := Enter(nil, 1, 1)
		done := make(chan *Task)
		k := c.Fork(0)
		go func() {
			Attach(k)
			got := gatedPrologue()
			Detach()
			done <- got
		}()
		if got := <-done; got != k {
			t.Fatalf("forked goroutine's prologue: %p, want its task %p", got, k)
		}
		c.Join()
	}
	if Attached() {
		t.Fatal("gate on after every construct joined")
	}
}

// TestAttachedDoesNotAllocate: the gate allocates nothing, on or off.
func TestAttachedDoesNotAllocate(t *testing.T) {
	check := func(name string) {
		if a := testing.AllocsPerRun(1000, func() { sinkTask = gatedPrologue() }); a != 0 {
			t.Errorf("gated prologue %s: %v allocs, want 0", name, a)
		}
	}
	check("nothing attached")
	stop := attachOthers(10)
	check("others attached")
	stop()
}
