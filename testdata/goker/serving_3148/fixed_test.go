package serving3148

import (
	"sync"
	"testing"
)

// TestServing3148Fixed is the kernel with the synchronization it lacks
// (written for goanomaly, session 18; not GoBench's): the hooks are
// installed before the controller's goroutine starts, so its reads of
// the reaction chain follow the write.
func TestServing3148Fixed(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		cs := &Clientset{}
		controller := NewController()
		controller.controller_Reconciler.(*Reconciler).ServingClientSet = cs
		eg := &Group{}
		defer func() {
			eg.Wait()
		}()
		h := NewHooks()
		h.OnUpdate(&cs.Fake)
		eg.Go(func() { controller.Run(1) })
	}()
	wg.Wait()
}
