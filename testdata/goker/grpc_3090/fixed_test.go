package grpc3090

import (
	"sync"
	"testing"
	"time"
)

// The kernel with the synchronization it lacks (written for goanomaly,
// session 18; not GoBench's): the resolver is published under the
// wrapper's mutex, which the goroutine poll starts reads it under.

type fixedWrapper struct {
	resolver Resolver
	mu       sync.Mutex
}

func (ccr *fixedWrapper) resolveNow() {
	ccr.mu.Lock()
	if ccr.resolver != nil {
		ccr.resolver.ResolveNow()
	}
	ccr.mu.Unlock()
}

func (ccr *fixedWrapper) UpdateState() {
	ccr.mu.Lock()
	defer ccr.mu.Unlock()
	go func() {
		ccr.resolveNow()
	}()
}

func TestGrpc3090Fixed(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ccr := &fixedWrapper{}
		r := (&resolver_Resolver{}).Build(ccr)
		ccr.mu.Lock()
		ccr.resolver = r
		ccr.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}()
	wg.Wait()
}
