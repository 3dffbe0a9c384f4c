// Package dyncalls has the decisions about calls through values: which
// functions get a prologue, which constructs attach their task, and what
// is noted.
package dyncalls

import (
	"fmt"
	"strings"
	"sync"
)

// parallel is imaging's helper: the work arrives as a function value.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i)
		}()
	}
	wg.Wait()
}

// plain forks nothing that calls through a value: no attach.
func plain(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = i
		}()
	}
	wg.Wait()
}

// A literal passed as an argument, and one stored in a variable.
func literals(a []int) {
	parallel(len(a), func(i int) { a[i]++ }) // want `prologue: function literal runs a checked copy when called through its value with a task` `callback: runs only in the blocks of the parallel loop at line 15: 1 independent, 0 read-only` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type`
	f := func(x int) int { return x + 1 }    // want `prologue: function literal runs a checked copy when called through its value with a task`
	a[0] = f(a[0])
}

func double(i int) {} // want `prologue: double runs its checked clone when called through a value with a task`

// A named function used as a value.
func named(n int) { parallel(n, double) }

type grid struct{ rows [][]int }

func (g *grid) row(i int) { g.rows[i][0] = i } // want `prologue: row runs its checked clone when called through a value with a task`

// never is neither converted nor used as a value: it keeps no prologue.
func (g *grid) never() int { return len(g.rows) }

// A method value.
func methodValue(g *grid) { parallel(len(g.rows), g.row); _ = g.never() }

type shape interface{ area() int }

type square struct{ side int }

func (s square) area() int { return s.side * s.side } // want `prologue: area runs its checked clone when called through a value with a task`

// square is converted to shape: its methods may be called through it.
func total(xs []square) int {
	var ss []shape
	for _, x := range xs {
		ss = append(ss, x)
	}
	return ss[0].area()
}

type stringer struct{}

func (stringer) String() string { return "s" } // want `prologue: String runs its checked clone when called through a value with a task`

// An implicit conversion to any, in a call.
func printed() { fmt.Println(stringer{}) }

type box[T any] struct{ v T }

func (b *box[T]) set(v T) { b.v = v } // want `prologue: set runs its checked clone when called through a value with a task`

// A generic method used as a value.
func generic(b *box[int]) { f := b.set; f(1) }

// A literal that calls recover cannot have a prologue: the prologue's
// frame would make recover return nil.
func recovers() func() {
	return func() { recover() } // want `function literal calls recover: calls through its value run it unchecked — not checked` `detach: function literal runs as written, its goroutine detached, when called through its value`
}

//go:noinline
func directive(i int) {}

// A function with a //go: directive keeps no prologue.
func withDirective(n int) {
	parallel(n, directive) // want `directive carries a //go: directive, //goanomaly:ignore or is init or main: calls through its value run it unchecked — not checked`
}

// A function of a package that is not rewritten, used as a value in a
// construct's code, runs unchecked.
func stdValue(words []string) {
	var wg sync.WaitGroup
	for i := range words { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			up := strings.ToUpper // want `function value strings.ToUpper is in strings, which is not rewritten: calls through it run unchecked — not checked`
			words[i] = up(words[i])
		}()
	}
	wg.Wait()
}

// A goroutine that runs a literal stored once in a variable before the
// construct is followed as its body (taskvar.go): a construct whose
// goroutine runs the literal's checked copy.
func storedGoroutine() {
	var wg sync.WaitGroup
	f := func() { defer wg.Done() } // want `prologue: function literal runs a checked copy when called through its value with a task`
	wg.Add(1)
	go f() // want `parallel sections of 1 goroutine start\(s\), joined at line 126` `goroutines attach their task: calls through values run checked`
	wg.Wait()
}

// A package-level function literal may be called through its value.
var hook = func(i int) int { return i * 2 } // want `prologue: function literal runs a checked copy when called through its value with a task`

// worker is started by name in a construct that attaches: it gets a
// prologue, and its goroutine is started through rt.Forked.
func worker(wg *sync.WaitGroup, out []int, i int) { // want `prologue: worker runs its checked clone when called through a value with a task`
	defer wg.Done()
	out[i] = hook(i)
}

func namedFork(out []int) {
	var wg sync.WaitGroup
	for i := range out { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go worker(&wg, out, i)
	}
	wg.Wait()
}

// sends synchronizes: used as a value, it detaches its goroutine instead.
func sends(ch chan int) { ch <- 1 } // want `detach: sends runs as written, its goroutine detached, when called through a value` sends:`synchronizes: communicates by channel`

func sendsValue(ch chan int) func(chan int) {
	return sends // want `sends synchronizes \(communicates by channel\): calls through its value run it unchecked — not checked`
}

// spread passes the results of a call with several results to a function
// with a checked clone: the clone cannot take the task beside them, so the
// call runs the function as written, noted.
func pair(s []int) (int, int) { return len(s), cap(s) }

func sum2(a, b int) int { return a + b }

func spread(out []int) {
	var wg sync.WaitGroup
	for i := range out { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = sum2(pair(out)) // want `call sum2\(pair\(out\)\) passes the results of a call with several results, which the checked version of sum2 cannot take beside the task: it runs as written, unchecked — not checked`
		}()
	}
	wg.Wait()
}

// onceLoad's literal runs once under sync.OnceValue, which orders it before
// the other callers return: it runs as written, detached, noted.
func onceLoad() func() int { // want onceLoad:`synchronizes: uses sync.Once`
	return sync.OnceValue(func() int { return 42 }) // want `function literal runs once under sync.OnceValue, which orders it before every other caller's return: calls through its value run it unchecked — not checked` `detach: function literal runs as written, its goroutine detached, when called through its value`
}
