// Package dep turns panics into errors.
package dep

import "fmt"

// Catch, deferred, stores a recovered panic in *err.
func Catch(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("recovered: %v", r)
	}
}

// Swallow, deferred, recovers a panic and drops it.
func Swallow() { recover() }
