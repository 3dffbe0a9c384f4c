// Package dep locks what it is given.
package dep

import "sync"

// Lock locks mu.
func Lock(mu *sync.Mutex) { mu.Lock() }

// Unlock unlocks mu.
func Unlock(mu *sync.Mutex) { mu.Unlock() }
