// Package pool stands for github.com/sourcegraph/conc/pool v0.3.0 in the
// analysis tests: the same types and methods, shaped as conc's (Go hands
// the task over a channel to a lazily started worker; Wait closes the
// channel and waits for the workers), trimmed. goanomaly knows these
// types from its table (knownpools.go), not from their code.
package pool

import (
	"context"
	"sync"
)

type Pool struct {
	wg      sync.WaitGroup
	limiter chan struct{}
	tasks   chan func()
	once    sync.Once
}

func New() *Pool { return &Pool{} }

func (p *Pool) init() { p.once.Do(func() { p.tasks = make(chan func()) }) }

func (p *Pool) Go(f func()) {
	p.init()
	select {
	case p.tasks <- f:
	default:
		p.wg.Add(1)
		go p.worker()
		p.tasks <- f
	}
}

func (p *Pool) worker() {
	defer p.wg.Done()
	for f := range p.tasks {
		f()
	}
}

func (p *Pool) Wait() {
	p.init()
	close(p.tasks)
	p.wg.Wait()
}

func (p *Pool) MaxGoroutines() int { return cap(p.limiter) }

func (p *Pool) WithMaxGoroutines(n int) *Pool {
	p.limiter = make(chan struct{}, n)
	return p
}

func (p *Pool) WithErrors() *ErrorPool { return &ErrorPool{pool: p} }

func (p *Pool) WithContext(ctx context.Context) *ContextPool {
	return &ContextPool{errorPool: p.WithErrors(), ctx: ctx}
}

type ErrorPool struct {
	pool *Pool
	mu   sync.Mutex
	errs error
}

func (p *ErrorPool) Go(f func() error) {
	p.pool.Go(func() {
		if err := f(); err != nil {
			p.mu.Lock()
			p.errs = err
			p.mu.Unlock()
		}
	})
}

func (p *ErrorPool) Wait() error {
	p.pool.Wait()
	return p.errs
}

func (p *ErrorPool) WithMaxGoroutines(n int) *ErrorPool {
	p.pool.WithMaxGoroutines(n)
	return p
}

func (p *ErrorPool) WithFirstError() *ErrorPool { return p }

type ContextPool struct {
	errorPool *ErrorPool
	ctx       context.Context
}

func (p *ContextPool) Go(f func(ctx context.Context) error) {
	p.errorPool.Go(func() error { return f(p.ctx) })
}

func (p *ContextPool) Wait() error { return p.errorPool.Wait() }

func (p *ContextPool) WithCancelOnError() *ContextPool { return p }

type ResultPool[T any] struct {
	pool *Pool
	mu   sync.Mutex
	res  []T
}

func NewWithResults[T any]() *ResultPool[T] { return &ResultPool[T]{pool: New()} }

func (p *ResultPool[T]) Go(f func() T) {
	p.pool.Go(func() {
		r := f()
		p.mu.Lock()
		p.res = append(p.res, r)
		p.mu.Unlock()
	})
}

func (p *ResultPool[T]) Wait() []T {
	p.pool.Wait()
	return p.res
}

func (p *ResultPool[T]) WithMaxGoroutines(n int) *ResultPool[T] {
	p.pool.WithMaxGoroutines(n)
	return p
}

func (p *ResultPool[T]) WithErrors() *ResultErrorPool[T] {
	return &ResultErrorPool[T]{errorPool: p.pool.WithErrors()}
}

func (p *ResultPool[T]) WithContext(ctx context.Context) *ResultContextPool[T] {
	return &ResultContextPool[T]{contextPool: p.pool.WithContext(ctx)}
}

type ResultErrorPool[T any] struct {
	errorPool *ErrorPool
	mu        sync.Mutex
	res       []T
}

func (p *ResultErrorPool[T]) Go(f func() (T, error)) {
	p.errorPool.Go(func() error {
		r, err := f()
		p.mu.Lock()
		p.res = append(p.res, r)
		p.mu.Unlock()
		return err
	})
}

func (p *ResultErrorPool[T]) Wait() ([]T, error) {
	err := p.errorPool.Wait()
	return p.res, err
}

type ResultContextPool[T any] struct {
	contextPool *ContextPool
	mu          sync.Mutex
	res         []T
}

func (p *ResultContextPool[T]) Go(f func(context.Context) (T, error)) {
	p.contextPool.Go(func(ctx context.Context) error {
		r, err := f(ctx)
		p.mu.Lock()
		p.res = append(p.res, r)
		p.mu.Unlock()
		return err
	})
}

func (p *ResultContextPool[T]) Wait() ([]T, error) {
	err := p.contextPool.Wait()
	return p.res, err
}
