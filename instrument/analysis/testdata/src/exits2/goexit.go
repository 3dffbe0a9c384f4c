package exits2

import (
	"exits2dep"
	"runtime"
	"sync"
	"testing"
)

// A parent that may end its goroutine between the forks and the join
// leaves the goroutines running past the construct.

func fatal(t *testing.T, a []int) { // want fatal:"ends the goroutine: calls t.Fatal"
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `t.Fatal ends the parent before the join; the goroutines outlive it — not checked`
			defer wg.Done()
			a[i] = i
		}()
		if i == 1 {
			t.Fatal("stop")
		}
	}
	wg.Wait()
}

func skipTB(tb testing.TB, a []int) { // want skipTB:"ends the goroutine: calls tb.SkipNow"
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `tb.SkipNow ends the parent before the join; the goroutines outlive it — not checked`
			defer wg.Done()
			a[i] = i
		}()
	}
	if len(a) > 3 {
		tb.SkipNow()
	}
	wg.Wait()
}

func stop() { // want stop:"ends the goroutine: calls runtime.Goexit"
	runtime.Goexit()
}

func helper(a []int) { // want helper:"ends the goroutine: calls stop, which calls runtime.Goexit"
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `the parent calls stop, which calls runtime.Goexit: it may end before the join; the goroutines outlive it — not checked`
			defer wg.Done()
			a[i] = i
		}()
		if i == 1 {
			stop()
		}
	}
	wg.Wait()
}

func otherPackage(t *testing.T, a []int) { // want otherPackage:"ends the goroutine: calls exitsdepVia, which calls t.FailNow"
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() { // want `the parent calls exitsdepVia, which calls t.FailNow: it may end before the join; the goroutines outlive it — not checked`
			defer wg.Done()
			a[i] = i
		}()
	}
	exitsdepVia(t)
	wg.Wait()
}

func exitsdepVia(t *testing.T) { exits2dep.Via(t) } // want exitsdepVia:"ends the goroutine: calls Via, which calls t.FailNow" `call of exits2dep.Via may access the memory of its argument t unchecked`

// An exit in a goroutine's own body, or after the join, leaves the
// construct whole: these stay constructs.

func fatalAfter(t *testing.T, a []int) { // want fatalAfter:"ends the goroutine: calls t.Fatal"
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = i
		}()
	}
	wg.Wait()
	if a[0] != 0 {
		t.Fatal("bad")
	}
}

func errorfBetween(t *testing.T, a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = i
		}()
		if i < 0 {
			t.Errorf("negative")
		}
	}
	wg.Wait()
}
