// Package taskvar starts workers held in variables (conc's
// iter.ForEachIdx): a local assigned once from a function literal before
// the construct, started by go, wg.Go, an errgroup's or a wrapper's Go, is
// followed as the fork's body; any other function value is noted with the
// reason.
package taskvar

import (
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
	"wrapdep"
)

// conc is iter.ForEachIdx: a wrapper of another package starts the
// worker, whose items are indices taken from an atomic counter.
func conc(in []int, f func(int, *int)) {
	var idx atomic.Int64
	task := func() {
		i := int(idx.Add(1) - 1)
		for ; i < len(in); i = int(idx.Add(1) - 1) {
			f(i, &in[i])
		}
	}
	var wg wrapdep.WaitGroup
	for range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line 31`
		wg.Go(task)
	}
	wg.Wait()
}

// goLoop starts the worker with go statements; it signals the WaitGroup.
func goLoop(a []int) {
	var wg sync.WaitGroup
	task := func() {
		defer wg.Done()
		a[0]++
	}
	for range 3 { // want `parallel loop of 1 goroutine start\(s\), joined at line 45`
		wg.Add(1)
		go task()
	}
	wg.Wait()
}

// errgroupGo runs a func() error held in a variable.
func errgroupGo(a []int) error {
	var g errgroup.Group
	task := func() error {
		a[0]++
		return nil
	}
	for range 2 { // want `parallel loop of 1 goroutine start\(s\), joined at line 58`
		g.Go(task)
	}
	return g.Wait()
}

func reassigned(a []int) {
	var wg sync.WaitGroup
	task := func() { defer wg.Done(); a[0]++ }
	if len(a) > 1 {
		task = func() { defer wg.Done(); a[1]++ }
	}
	wg.Add(1)
	go task() // want `goroutine runs a function value, task: task is assigned again after its declaration; its join cannot be seen — not checked`
	wg.Wait()
}

func reassignedGo(a []int) {
	var wg sync.WaitGroup
	task := func() { a[0]++ }
	task = func() { a[1]++ }
	wg.Go(task) // want `parallel sections of 1 goroutine start\(s\)` `goroutine runs task, a function value: task is assigned again after its declaration; the function it runs is not followed`
	wg.Wait()
}

func param(task func(), wg *sync.WaitGroup) { // want param:"synchronizes: waits on a WaitGroup its siblings signal"
	wg.Add(1)
	go task() // want `goroutine runs a function value, task: task is a parameter or a variable of an enclosing function, whose value cannot be seen here; its join cannot be seen — not checked`
	wg.Wait()
}

func paramGo(task func()) {
	var wg sync.WaitGroup
	wg.Go(task) // want `parallel sections of 1 goroutine start\(s\)` `goroutine runs task, a function value: task is a parameter or a variable of an enclosing function`
	wg.Wait()
}

type holder struct{ task func() }

func field(h *holder) {
	var wg sync.WaitGroup
	wg.Go(h.task) // want `parallel sections of 1 goroutine start\(s\)` `goroutine runs h.task, a function value: not a local variable holding a function literal \(a field, a package variable, a call's result\)`
	wg.Wait()
}

func addressed(a []int) {
	var wg sync.WaitGroup
	task := func() { defer wg.Done(); a[0]++ }
	p := &task
	_ = p
	wg.Add(1)
	go task() // want `the address of task is taken, so it may be assigned through it`
	wg.Wait()
}

func alsoCalled(a []int) {
	var wg sync.WaitGroup
	task := func() { defer wg.Done(); a[0]++ }
	wg.Add(1)
	go task() // want `task is also used other than as the function a goroutine starts`
	wg.Wait()
	wg.Add(1)
	task()
}

func startedTwice(a []int) {
	var wg sync.WaitGroup
	task := func() { a[0]++ }
	wg.Go(task) // want `parallel sections of 1 goroutine start\(s\)` `goroutine runs task, a function value: it is also started outside the construct`
	wg.Wait()
	wg.Go(task) // want `parallel sections of 1 goroutine start\(s\)` `goroutine runs task, a function value: it is also started outside the construct`
	wg.Wait()
}

func noDone(a []int) {
	var wg sync.WaitGroup
	task := func() { a[0]++ }
	go task() // want `goroutine is never joined \(task, the function literal it runs, signals no WaitGroup, errgroup or join channel\) — not checked`
	wg.Wait()
}

// waitInExpr joins inside an expression: noted with that reason, not as
// if no Wait followed.
func waitInExpr(a []int) {
	var g errgroup.Group
	g.Go(func() error { a[0]++; return nil }) // want `goroutine is joined by g.Wait\(\) inside an expression, whose other operands may be evaluated while the goroutines run`
	fmt.Println(g.Wait() != nil)
}

// loads reads the counter in the worker held in a variable: the workers
// may coordinate through it, as when the worker is written at the fork.
func loads(out []int) { // want loads:"synchronizes: an atomic value steers"
	var idx atomic.Int64
	task := func() { // want `function literal synchronizes \(an atomic value steers the goroutines' control flow \(idx.Add\(1\)\)\): calls through its value run it unchecked`
		for i := int(idx.Add(1) - 1); i < len(out); i = int(idx.Add(1) - 1) {
			out[i] = int(idx.Load())
		}
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(task) // want `the workers' counter idx is used in the construct other than to take an index: the goroutines may coordinate through it`
	}
	wg.Wait()
}

// recovers' worker calls recover, so it has no checked copy: the
// construct says its goroutine runs unchecked.
func recovers(a []int) {
	task := func() { // want `function literal calls recover: calls through its value run it unchecked`
		defer func() { recover() }()
		if r := recover(); r != nil {
			a[0] = 1
		}
	}
	var wg sync.WaitGroup
	wg.Go(task) // want `parallel sections of 1 goroutine start\(s\)` `goroutine runs task, whose function literal has no checked version \(function literal calls recover: calls through its value run it unchecked\)`
	wg.Wait()
}
