// Package plaindep stands for a dependency built plain: Do calls its
// callback under a lock of its own.
package plaindep

import "sync"

type Safe struct{ mu sync.Mutex }

func (s *Safe) Do(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

// Hooks calls a stored callback under its lock.
type Hooks struct {
	F  func()
	mu sync.Mutex
}

func (h *Hooks) Fire() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.F()
}

// Fired fires the hook and says whether it ran: a deferred call of it
// (results dropped) cannot be deferred through rt.Plain.
func (h *Hooks) Fired() bool {
	h.Fire()
	return true
}
