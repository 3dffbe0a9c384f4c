// Package view reinterprets memory: its importers cannot trust types to keep memory apart. // want package:"views: aliasviews/view imports unsafe"
package view

import "unsafe"

// Floats returns u's memory as float32s.
func Floats(u []int32) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(u))), len(u))
}
