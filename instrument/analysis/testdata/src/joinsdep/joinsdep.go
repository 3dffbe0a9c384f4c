// Package joinsdep hides synchronization between goroutines behind calls:
// an atomic flag's getter, a poll of it, a getter of state under a lock,
// and a barrier.
package joinsdep

import (
	"sync"
	"sync/atomic"
)

// Flag is set once by one goroutine and waited for by others.
type Flag struct{ v atomic.Bool }

// Set sets the flag.
func (f *Flag) Set() { f.v.Store(true) }

// IsSet reads the flag.
func (f *Flag) IsSet() bool { return f.v.Load() } // want IsSet:`returns an atomic value`

// WaitSet spins until the flag is set.
func (f *Flag) WaitSet() { // want WaitSet:`synchronizes: polls IsSet \(it returns an atomic value\)`
	for !f.IsSet() {
	}
}

// Box holds a done bit under a mutex.
type Box struct {
	mu   sync.Mutex
	done bool
}

// Finish sets the bit.
func (b *Box) Finish() { b.mu.Lock(); b.done = true; b.mu.Unlock() }

// Done reads the bit.
func (b *Box) Done() bool { // want Done:`returns state read under a lock`
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

// Meet is a barrier: it waits for everyone who calls it.
func Meet(wg *sync.WaitGroup) { // want Meet:`synchronizes: waits on a WaitGroup its siblings signal \(wg.Wait\): a barrier between the goroutines`
	wg.Done()
	wg.Wait()
}
