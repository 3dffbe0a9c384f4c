package rt

import "sync"

// refGLS is the reference implementation of Current, Attach and Detach that
// the table is tested against: the goroutine named by the id runtime.Stack
// prints, a map under a mutex. Slow (a microsecond or more per call) and
// obviously right.
type refGLS struct {
	mu sync.Mutex
	m  map[uint64]*Task
}

func newRefGLS() *refGLS { return &refGLS{m: map[uint64]*Task{}} }

func (r *refGLS) attach(t *Task) {
	if t == nil {
		return
	}
	id := goid()
	r.mu.Lock()
	r.m[id] = t
	r.mu.Unlock()
}

func (r *refGLS) detach() {
	id := goid()
	r.mu.Lock()
	delete(r.m, id)
	r.mu.Unlock()
}

func (r *refGLS) current() *Task {
	id := goid()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[id]
}

func (r *refGLS) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.m)
}

// glsClear empties the table, for tests that may leave an entry behind (a
// goroutine that exits attached).
func glsClear() {
	glsMu.Lock()
	defer glsMu.Unlock()
	tab := glsTab.Load()
	for i := range tab.keys {
		if k := tab.keys[i].Load(); k != glsEmpty && k != glsTombstone {
			glsDelete(k)
		}
	}
}
