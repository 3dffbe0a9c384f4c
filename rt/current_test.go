package rt

import (
	"sync"
	"testing"
)

// TestCurrentIsPerGoroutine: a task attached in one goroutine is not seen
// by another, and Detach ends it.
func TestCurrentIsPerGoroutine(t *testing.T) {
	if Current() != nil {
		t.Fatal("Current before any Attach is not nil")
	}
	var wg sync.WaitGroup
	tasks := make([]*Task, 8)
	for i := range tasks {
		tasks[i] = &Task{}
	}
	for i := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Attach(tasks[i])
			defer Detach()
			for range 100 {
				if got := Current(); got != tasks[i] {
					t.Errorf("goroutine %d: Current = %p, want %p", i, got, tasks[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	if Current() != nil {
		t.Fatal("Current in the test goroutine is not nil")
	}
	if n := attached.Load(); n != 0 {
		t.Fatalf("%d goroutines still attached after every Detach", n)
	}
}

// TestRootEnterAttaches: a goroutine that enters a root construct runs as
// the root task until the join, and as before after it.
func TestRootEnterAttaches(t *testing.T) {
	c := Enter(nil, 1, 1)
	if got := Current(); got == nil || got != c.Task() {
		t.Fatalf("Current in a root construct = %p, want its task %p", got, c.Task())
	}
	c.Join()
	if Current() != nil {
		t.Fatal("Current after the root join is not nil")
	}
}
