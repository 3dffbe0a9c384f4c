// Package concpool submits tasks to conc's pools (table of known APIs,
// knownpools.go): a loop or a list of p.Go joined by p.Wait is a
// construct; a pool whose limit, definition, uses or tasks the table's
// conditions do not show is noted with the reason.
package concpool

import (
	"context"

	"github.com/sourcegraph/conc/pool"
)

func loop(a []int) {
	p := pool.New().WithMaxGoroutines(4)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 18`
		p.Go(func() { a[i]++ })
	}
	p.Wait()
}

func sections(a []int) {
	p := pool.New()
	p.Go(func() { a[0]++ }) // want `parallel sections of 2 goroutine start\(s\), joined at line 25`
	p.Go(func() { a[1]++ })
	p.Wait()
}

func errs(a []int) error {
	p := pool.New().WithErrors().WithFirstError()
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 33`
		p.Go(func() error { a[i]++; return nil })
	}
	err := p.Wait()
	return err
}

func ctxIgnored(ctx context.Context, a []int) error {
	p := pool.New().WithContext(ctx).WithCancelOnError()
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 42`
		p.Go(func(context.Context) error { a[i]++; return nil })
	}
	return p.Wait()
}

func ctxUsed(ctx context.Context, a []int) error {
	p := pool.New().WithContext(ctx)
	for i := range a {
		p.Go(func(ctx context.Context) error { a[i]++; return ctx.Err() }) // want `a task of context pool p uses its context, whose cancellation \(by another task's error, or by the caller\) orders the tasks in a way block tags cannot express — not checked`
	}
	return p.Wait()
}

func results(a []int) []int {
	p := pool.NewWithResults[int]().WithMaxGoroutines(2)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 58`
		p.Go(func() int { return a[i] })
	}
	return p.Wait()
}

func resultErrs(a []int) ([]int, error) {
	p := pool.NewWithResults[int]().WithErrors()
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 66`
		p.Go(func() (int, error) { return a[i], nil })
	}
	res, err := p.Wait()
	return res, err
}

func resultCtx(ctx context.Context, a []int) ([]int, error) {
	p := pool.NewWithResults[int]().WithContext(ctx)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 75`
		p.Go(func(_ context.Context) (int, error) { return a[i], nil })
	}
	return p.Wait()
}

func serial(a []int) {
	p := pool.New().WithMaxGoroutines(1)
	for i := range a {
		p.Go(func() { a[i]++ }) // want `pool p is limited by WithMaxGoroutines\(1\), not a constant of at least 2: a limit of 1 runs the tasks one after another`
	}
	p.Wait()
}

func limitVar(a []int, n int) {
	p := pool.New().WithMaxGoroutines(n)
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 91`
		p.Go(func() { a[i]++ })
	}
	p.Wait()
}

func limitVarErrors(a []int, n int) error {
	p := pool.New().WithMaxGoroutines(n).WithErrors()
	for i := range a {
		p.Go(func() error { a[i]++; return nil }) // want `pool p is limited by WithMaxGoroutines\(n\), not a constant of at least 2`
	}
	return p.Wait()
}

func inc() {}

func limitVarNamed(n int) {
	p := pool.New().WithMaxGoroutines(n)
	for range 3 {
		p.Go(inc) // want `pool p is limited by WithMaxGoroutines\(n\), known only at run time, and task inc is not a function literal, which alone can be left unchecked when the limit is 1` `inc is given to .*Pool\)\.Go, of github.com/sourcegraph/conc/pool, which is not rewritten`
	}
	p.Wait()
}

func param(p *pool.Pool, a []int) { // want param:"synchronizes: waits on a WaitGroup its siblings signal"
	for i := range a {
		p.Go(func() { a[i]++ }) // want `pool p is not defined in this function from pool.New\(\) or pool.NewWithResults\(\)`
	}
	p.Wait()
}

func reconfigure(p *pool.Pool) { p.WithMaxGoroutines(1) }

func passed(a []int) {
	p := pool.New()
	reconfigure(p)
	for i := range a {
		p.Go(func() { a[i]++ }) // want `pool p is used other than as the receiver of Go, Wait or MaxGoroutines`
	}
	p.Wait()
}

func work() int { return 1 }

func namedTask() []int {
	p := pool.NewWithResults[int]()
	for range 3 {
		p.Go(work) // want `task work of pool p is a named function, which is not followed for a pool whose tasks take a context or return results` `work is given to .*ResultPool\[T\]\)\.Go, of github.com/sourcegraph/conc/pool, which is not rewritten`
	}
	return p.Wait()
}

func nested(a []int) {
	p := pool.New()
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 148`
		p.Go(func() {
			a[i]++
			p.Go(func() {}) // want `goroutine is never joined in the block that starts it`
		})
	}
	p.Wait()
}

func early(a []int) {
	p := pool.New()
	for i := range a {
		p.Go(func() { a[i]++ }) // want `a return leaves the construct before its join; the goroutines outlive it — not checked`
		if a[0] > 0 {
			return
		}
	}
	p.Wait()
}
