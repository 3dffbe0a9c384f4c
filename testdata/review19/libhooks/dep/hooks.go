// Package hooks runs registered callbacks under its own mutex, from the
// caller's goroutine (Fire) and from a goroutine of its own (Start).
package hooks

import (
	"sync"
	"time"
)

type Registry struct {
	mu    sync.Mutex
	hooks []func(int)
	n     int
}

func (r *Registry) Register(f func(int)) {
	r.mu.Lock()
	r.hooks = append(r.hooks, f)
	r.mu.Unlock()
}

func (r *Registry) Fire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	for _, h := range r.hooks {
		h(r.n)
	}
}

func (r *Registry) Start(every time.Duration, stop <-chan struct{}) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				r.Fire()
			case <-stop:
				return
			}
		}
	}()
	return done
}
