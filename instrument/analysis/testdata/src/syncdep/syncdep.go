// Package syncdep synchronizes by channel behind a plain function call.
package syncdep

// Sem is a counting semaphore on a channel.
type Sem chan struct{}

// Acquire takes a slot: it communicates by channel.
func (s Sem) Acquire() { s <- struct{}{} }

// Release gives the slot back.
func (s Sem) Release() { <-s }

// Guarded takes and gives back a slot around f, through Acquire.
func Guarded(s Sem, f func()) {
	s.Acquire()
	defer s.Release()
	f()
}
